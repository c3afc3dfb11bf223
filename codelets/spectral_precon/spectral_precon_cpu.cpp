#include <immintrin.h>

#include <vector>

#include "../dot_partial/dot_partial_kernel.hpp"
#include "../residual_dot/residual_dot_kernel.hpp"
#include "../solver_scalars/solver_scalars_update.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "spectral_chain_pass.hpp"
#include "spectral_column_solve.hpp"
#include "spectral_precon_kernel.hpp"

namespace tdc {
namespace {

// W line pairs at once, each pair a lane of every vector (its points at [point * W + lane]): the
// CUDA pass's arithmetic, the same operations in the same order on every lane, so the same bits as one
// pair at a time; the lanes let the compiler vectorise the butterflies.
template <int W>
struct PairBatch {
  std::vector<double> re, im, ha, hb;
  std::vector<int> rev;  // bit_reverse(t, bits), once a pass
  PairBatch(int n, int bits) : re(std::size_t(n) * W), im(re.size()), ha(re.size()), hb(re.size()), rev(n) {
    for (int t = 0; t < n; ++t) rev[t] = bit_reverse(t, bits);
  }
};

// The radix-2 stages on W bit-reversed lines of 2^bits points, stage s joining halves of 2^s;
// butterfly(), lane by lane.
template <int W>
void lines_fft(PairBatch<W>& x, int bits, const double* cw, const double* sw) {
  double* re = x.re.data();
  double* im = x.im.data();
  for (int s = 0; s < bits; ++s)
    for (int b = 0; b < (1 << bits) / 2; ++b) {
      const int hs = 1 << s, pos = b & (hs - 1), i0 = ((b - pos) << 1) + pos;
      const int k = pos << (bits - 1 - s);
      double *ar = re + std::size_t(i0) * W, *ai = im + std::size_t(i0) * W;
      double *cr = re + std::size_t(i0 + hs) * W, *ci = im + std::size_t(i0 + hs) * W;
      if constexpr (W == 4) {
        // Four lanes in one AVX2 register: products rounded one by one, as on the GPU (the
        // vectoriser, left to itself, fuses this complex product into vfmaddsub).
        const __m256d wr = _mm256_set1_pd(cw[k]), wi = _mm256_set1_pd(sw[k]);
        const __m256d c_r = _mm256_loadu_pd(cr), c_i = _mm256_loadu_pd(ci);
        const __m256d a_r = _mm256_loadu_pd(ar), a_i = _mm256_loadu_pd(ai);
        const __m256d tr = _mm256_sub_pd(_mm256_mul_pd(wr, c_r), _mm256_mul_pd(wi, c_i));
        const __m256d ti = _mm256_add_pd(_mm256_mul_pd(wr, c_i), _mm256_mul_pd(wi, c_r));
        _mm256_storeu_pd(ar, _mm256_add_pd(a_r, tr));
        _mm256_storeu_pd(ai, _mm256_add_pd(a_i, ti));
        _mm256_storeu_pd(cr, _mm256_sub_pd(a_r, tr));
        _mm256_storeu_pd(ci, _mm256_sub_pd(a_i, ti));
      } else {
        for (int w = 0; w < W; ++w) {
          Cplx a{ar[w], ai[w]}, c{cr[w], ci[w]};
          butterfly(a, c, cw[k], sw[k]);
          ar[w] = a.re;
          ai[w] = a.im;
          cr[w] = c.re;
          ci[w] = c.im;
        }
      }
    }
}

// hartley_pair() on every lane: 2 H_a[m], 2 H_b[m] of the transformed pairs, into x.ha, x.hb.
template <int W>
void lines_hartley(PairBatch<W>& x, int n) {
  for (int m = 0; m < n; ++m) {
    const std::size_t pm = std::size_t(m) * W, um = std::size_t((n - m) & (n - 1)) * W;
    if constexpr (W == 4) {
      const __m256d pr = _mm256_loadu_pd(&x.re[pm]), pi = _mm256_loadu_pd(&x.im[pm]);
      const __m256d ur = _mm256_loadu_pd(&x.re[um]), ui = _mm256_loadu_pd(&x.im[um]);
      _mm256_storeu_pd(&x.ha[pm], _mm256_sub_pd(_mm256_add_pd(pr, ur), _mm256_sub_pd(pi, ui)));
      _mm256_storeu_pd(&x.hb[pm], _mm256_add_pd(_mm256_sub_pd(pr, ur), _mm256_add_pd(pi, ui)));
    } else {
      for (int w = 0; w < W; ++w)
        hartley_of(Cplx{x.re[pm + w], x.im[pm + w]}, Cplx{x.re[um + w], x.im[um + w]}, x.ha[pm + w], x.hb[pm + w]);
    }
  }
}

// Line pairs l0 .. l0 + 2 W - 1 of one pass (pair w: lines l0 + 2 w and l0 + 2 w + 1).
template <int W>
void hartley_pairs(const SpectralPlan& p, const double* tab, int axis, const PassView& in, const PassView& out, long l0,
                   PairBatch<W>& x) {
  const int bits = line_bits(p, axis), n = 1 << bits;
  const double *cw = twiddle_cos(p, tab, axis), *sw = twiddle_sin(p, tab, axis);
  // Along x and y a line's points sit a fixed stride apart within each piece (a piece holds run
  // points of it); the vertical cycles go through the level table.
  const auto stride = [&](const PassView& v) -> long { return axis == 0 ? 1 : axis == 1 ? v.sx : 0; };
  const auto run = [&](const PassView& v) { return v.bits < bits ? 1 << v.bits : n; };
  const long in_step = stride(in), out_step = stride(out);
  for (int w = 0; w < W; ++w) {
    const int la = int(l0) + 2 * w;
    if (axis < 2) {
      for (int t0 = 0; t0 < n; t0 += run(in)) {
        const double *a = line_point(p, tab, axis, in, la, t0), *b = line_point(p, tab, axis, in, la + 1, t0);
        for (int t = t0; t < t0 + run(in); ++t) {
          const std::size_t at = std::size_t(x.rev[t]) * W + w;
          x.re[at] = a[(t - t0) * in_step];
          x.im[at] = b[(t - t0) * in_step];
        }
      }
    } else {
      for (int t = 0; t < n; ++t) {
        const std::size_t at = std::size_t(x.rev[t]) * W + w;
        x.re[at] = *line_point(p, tab, axis, in, la, t);
        x.im[at] = *line_point(p, tab, axis, in, la + 1, t);
      }
    }
  }
  lines_fft(x, bits, cw, sw);
  lines_hartley(x, n);
  for (int w = 0; w < W; ++w) {
    const int la = int(l0) + 2 * w;
    if (axis < 2) {
      for (int t0 = 0; t0 < n; t0 += run(out)) {
        double *a = line_point(p, tab, axis, out, la, t0), *b = line_point(p, tab, axis, out, la + 1, t0);
        for (int t = t0; t < t0 + run(out); ++t) {
          a[(t - t0) * out_step] = x.ha[std::size_t(t) * W + w];
          b[(t - t0) * out_step] = x.hb[std::size_t(t) * W + w];
        }
      }
    } else {
      for (int t = 0; t < n; ++t) {
        *line_point(p, tab, axis, out, la, t) = x.ha[std::size_t(t) * W + w];
        *line_point(p, tab, axis, out, la + 1, t) = x.hb[std::size_t(t) * W + w];
      }
    }
  }
}

// A whole pass: kPairLanes line pairs at a time, the rest one by one.
constexpr int kPairLanes = 4;
void hartley_pass(const SpectralPlan& p, const double* tab, int axis, const PassView& in, const PassView& out) {
  const int bits = line_bits(p, axis), n = 1 << bits;
  const long lines = line_count(p, axis);
  PairBatch<kPairLanes> wide(n, bits);
  PairBatch<1> one(n, bits);
  long l = 0;
  for (; l + 2 * kPairLanes <= lines; l += 2 * kPairLanes) hartley_pairs(p, tab, axis, in, out, l, wide);
  for (; l < lines; l += 2) hartley_pairs(p, tab, axis, in, out, l, one);
}

// The vertical pass of a plan with varying level coefficients: each line's cycle solved directly,
// kLanes neighbouring columns at a time (a vector of them) where the part is that wide.
constexpr int kLanes = 4;
template <int W>
void column_lines(const SpectralPlan& p, const double* tab, SpectralView in, SpectralView out) {
  std::vector<double> phi(static_cast<std::size_t>(W) << p.bz), v(phi.size());
  const long lines = line_count(p, 2);
  for (long l = 0; l < lines; l += W) column_solve<W>(p, tab, int(l), in, out, phi.data(), v.data());
}
void column_pass(const SpectralPlan& p, const double* tab, SpectralView in, SpectralView out) {
  if (p.nx % kLanes == 0)
    column_lines<kLanes>(p, tab, in, out);
  else
    column_lines<1>(p, tab, in, out);
}

// Four neighbouring lines' values (x .. x + 3, adjacent in memory), a lane each: the chain solve of
// four lines at once, each lane the scalar operations in the scalar order (the same bits), which
// the compiler keeps in one AVX2 register.
struct Lanes {
  double v[4];
  Lanes() = default;
  Lanes(double a) : v{a, a, a, a} {}
};
template <class Op>
Lanes lanes_of(const Lanes& a, const Lanes& b, Op op) {
  Lanes r;
  for (int i = 0; i < 4; ++i) r.v[i] = op(a.v[i], b.v[i]);
  return r;
}
Lanes operator+(const Lanes& a, const Lanes& b) { return lanes_of(a, b, [](double x, double y) { return x + y; }); }
Lanes operator-(const Lanes& a, const Lanes& b) { return lanes_of(a, b, [](double x, double y) { return x - y; }); }
Lanes operator*(const Lanes& a, const Lanes& b) { return lanes_of(a, b, [](double x, double y) { return x * y; }); }
Lanes operator/(const Lanes& a, const Lanes& b) { return lanes_of(a, b, [](double x, double y) { return x / y; }); }
Lanes operator-(const Lanes& a) { return lanes_of(a, a, [](double x, double) { return -x; }); }
// Chain c of lines l .. l + 3 of one array.
struct LanePoints {
  const SpectralPlan& p;
  const double* tab;
  const SpectralView& v;
  int l, c;
  Lanes& operator()(int q) const { return *reinterpret_cast<Lanes*>(y_point(p, tab, v, l, c + p.hy * q)); }
};

// The chain passes (spectral_chain_pass.hpp), chain by chain: neighbouring lines (x) in turn, so
// that a chain's rows stay in cache for the next; four lines at once where they are a row's and none
// is null (those take one line at a time). Pieces are addressed through their view.
void whole_chains(const SpectralPlan& p, const double* tab, const SpectralView& in, const SpectralView& out) {
  const int lines = int(chain_lines(p));
  for (int c = 0; c < p.hy; ++c)
    for (int l = 0; l < lines; l += 4) {
      const int count = lines - l < 4 ? lines - l : 4;
      if (p.nx % 4 == 0) {
        ChainRow<Lanes> r;
        for (int w = 0; w < 4; ++w) {
          const ChainRow<> one = chain_row_of_line(p, tab, l + w);
          r.a.v[w] = one.a;
          r.b.v[w] = one.b;
          r.w.v[w] = one.w;
          r.singular |= one.singular;
        }
        if (!r.singular) {
          chain_solve_whole(LanePoints{p, tab, in, l, c}, LanePoints{p, tab, out, l, c}, chain_length(p), r);
          continue;
        }
      }
      for (int w = 0; w < count; ++w) chain_line_whole(p, tab, in, out, l + w, c);
    }
}
void whole_chains(const SpectralPlan& p, const double* tab, const PassView& in, const PassView& out) {
  const int lines = int(chain_lines(p));
  for (int c = 0; c < p.hy; ++c)
    for (int l = 0; l < lines; ++l) chain_line_whole(p, tab, in, out, l, c);
}
void chain_pass(const SpectralPlan& p, const double* tab, int pass, const PassView& in, const PassView& out,
                const ChainExchange* x) {
  if (pass == kPassYChain) {
    if (in.bits < p.by || out.bits < p.by) return whole_chains(p, tab, in, out);
    return whole_chains(p, tab, in.whole(), out.whole());
  }
  const int lines = int(chain_lines(p));
  for (int c = 0; c < p.hy; ++c)
    for (int l = 0; l < lines; ++l) {
      if (pass == kPassYChainUp)
        chain_line_up(p, tab, out.whole(), l, c, x->ends);
      else
        chain_line_down(p, tab, out.whole(), l, c, *x);
    }
}

}  // namespace

void spectral_pass_cpu(const SpectralPlan& p, const double* tab, int pass, PassView in, PassView out,
                       const ChainExchange* x) {
  if (pass == kPassColumns)
    column_pass(p, tab, in.whole(), out.whole());
  else if (is_chain_pass(pass))
    chain_pass(p, tab, pass, in, out, x);
  else
    hartley_pass(p, tab, pass_axis(pass), in, out);
}

void spectral_solve_cpu(const SpectralPlan& p, const double* tab, const double* st, SpectralView r, SpectralView z) {
  if (solver_skips(st, p.skip_from)) return;
  const SolvePasses order = solve_passes_of(p);
  for (int n = 0; n < 5; ++n) spectral_pass_cpu(p, tab, order.pass[n], n == 0 ? r : z, z);
}

void spectral_pcg_precon_cpu(const SpectralPlan& p, const TileLayout& L, const double* tab, const double* st,
                             const double* q, double* r, double* z, double* out) {
  residual_update_dot_cpu(L, st, p.skip_from, state::kAlpha, q, r, out);  // does the solve stop here?
  const bool skip = precon_step_ends_solve(st, out, p.skip_from);
  if (!skip) {
    spectral_solve_cpu(p, tab, st, tile_view(L, r), tile_view(L, z));
    dot_partial_cpu(L, st, p.skip_from, r, r, z, out);
  }
  out[kSolveSkippedAt] = skip ? 1.0 : 0.0;
}

}  // namespace tdc
