// The chain passes (kPassYChain, kPassYChainUp, kPassYChainDown) line by line: chain c of y line l
// (l = i + nx k of the pass's part) holds the points y = c + hy q. One function per chain, shared by
// the CPU loop and the CUDA kernels (one thread a chain).
//
// A part that splits y (tiles 1 x G, G a power of two, parts of n points a chain) exchanges per
// chain only its ends; a null chain (sigma = 0, the pseudo-inverse needs the whole chain's means) its
// points. A part's exchange vector (chain_exchange_doubles): ends of chain (c, l) at 2 (c lines + l),
// then the points q of null chain (c, s) at 2 hy lines + (c null_lines + s) n + q.
#pragma once
#include "spectral_chain_solve.hpp"

namespace tdc {

constexpr int kMaxChainParts = 16;

struct ChainExchange {
  double* ends = nullptr;                  // the part's own (kPassYChainUp writes it)
  const double* all[kMaxChainParts] = {};  // every part's, in order (kPassYChainDown reads them)
  int parts = 1, part = 0;
  double* scratch = nullptr;  // null_lines hy whole chains (kPassYChainDown)
};

TDC_HD long chain_lines(const SpectralPlan& p) { return long(p.nx) * p.nz; }
TDC_HD int chain_length(const SpectralPlan& p) { return p.ny / p.hy; }
TDC_HD long chain_exchange_doubles(const SpectralPlan& p) {
  return 2L * p.hy * chain_lines(p) + long(p.hy) * p.null_lines * chain_length(p);
}

// Point y = t of line l of a y pass's view.
TDC_HD double* y_point(const SpectralPlan& p, const double* tab, const PassView& v, int l, int t) {
  return line_point(p, tab, 1, v, l, t);
}
TDC_HD double* y_point(const SpectralPlan& p, const double* tab, const SpectralView& v, int l, int t) {
  return v.p + line_offset(p, tab, 1, v, l, t);
}
template <class View>
struct ChainPoints {
  const SpectralPlan& p;
  const double* tab;
  const View& v;
  int l, c;
  TDC_HD double& operator()(int q) const { return *y_point(p, tab, v, l, c + p.hy * q); }
};

TDC_HD ChainRow<> chain_row_of_line(const SpectralPlan& p, const double* tab, int l) {
  return chain_row(p, tab, p.m0 + (l & (p.nx - 1)), p.k0 + (l >> p.bx));
}
// Null line l's place in the plan's list (l: global id).
TDC_HD int null_line_index(const SpectralPlan& p, const double* tab, int l) {
  for (int s = 0; s < p.null_lines; ++s)
    if (tab[p.null_line_ids + s] == double(l)) return s;
  return 0;
}
// Where chain (c, l) sits in a part's exchange vector: its two ends, or a null chain's points.
TDC_HD long chain_ends_at(const SpectralPlan& p, int l, int c) { return 2 * (long(c) * chain_lines(p) + l); }
TDC_HD long null_chain_at(const SpectralPlan& p, const double* tab, int l, int c) {
  return 2L * p.hy * chain_lines(p) + (long(c) * p.null_lines + null_line_index(p, tab, l)) * chain_length(p);
}

// kPassYChain: the whole chain, in -> out.
template <class View>
TDC_HD void chain_line_whole(const SpectralPlan& p, const double* tab, const View& in, const View& out, int l, int c) {
  chain_solve_whole(ChainPoints<View>{p, tab, in, l, c}, ChainPoints<View>{p, tab, out, l, c}, chain_length(p),
                    chain_row_of_line(p, tab, l));
}

// kPassYChainUp on the part's array (in place): the leaves and the way up, the ends out; a null
// chain's points out as they are.
TDC_HD void chain_line_up(const SpectralPlan& p, const double* tab, const SpectralView& v, int l, int c, double* ends) {
  const ChainRow<> r = chain_row_of_line(p, tab, l);
  const ChainPoints<SpectralView> point{p, tab, v, l, c};
  const int n = chain_length(p);
  if (r.singular) {
    double* out = ends + null_chain_at(p, tab, l, c);
    for (int q = 0; q < n; ++q) out[q] = point(q);
    return;
  }
  ChainLevels<> cl;
  chain_levels(r, spectral_log2(n), cl);
  chain_part_up(point, point, n, cl, r.w, 0.0);
  const long at = chain_ends_at(p, l, c);
  ends[at] = point(0);
  ends[at + 1] = point(n - 1);
}

// kPassYChainDown on the part's array (in place): from every part's ends, the part's values.
TDC_HD void chain_line_down(const SpectralPlan& p, const double* tab, const SpectralView& v, int l, int c,
                            const ChainExchange& x) {
  const ChainRow<> r = chain_row_of_line(p, tab, l);
  const ChainPoints<SpectralView> point{p, tab, v, l, c};
  const int n = chain_length(p), g = x.part, parts = x.parts;
  if (r.singular) {
    const long from = null_chain_at(p, tab, l, c);  // (the scratch holds the null chains whole, in that order)
    double* whole = x.scratch + (from - 2L * p.hy * chain_lines(p)) * parts;
    for (int h = 0; h < parts; ++h)
      for (int q = 0; q < n; ++q) whole[h * n + q] = x.all[h][from + q];
    const ArrayPoints<> a{whole};
    chain_solve_whole(a, a, n * parts, r);
    for (int q = 0; q < n; ++q) point(q) = whole[g * n + q];
    return;
  }
  ChainLevels<> cl;
  chain_levels(r, spectral_log2(n * parts), cl);
  double e[2 * kMaxChainParts];
  const long at = chain_ends_at(p, l, c);
  for (int h = 0; h < parts; ++h) {
    e[2 * h] = x.all[h][at];
    e[2 * h + 1] = x.all[h][at + 1];
  }
  const EndSlots s = chain_top(e, parts, n, cl);
  point(0) = s.left(g);
  point(n - 1) = s.right(g);
  chain_part_down(point, n, cl, double(s.right((g + parts - 1) % parts)), double(s.left((g + 1) % parts)));
}

}  // namespace tdc
