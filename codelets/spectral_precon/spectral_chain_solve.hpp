// The y pass of the transform-first order as a direct solve. After the vertical and x transforms,
// each mode (m, t) of a y line is decoupled from the others, and what is left along y is, for each
// of the line's hy interleaved chains (points c, c + hy, c + 2 hy, ...; laplc couples y to y +- 2),
// the periodic tridiagonal system
//   a u[q-1] + b u[q] + a u[q+1] = w f[q],   a = d an,  b = d (sigma - 2 an),  sigma = mu_x[m] + mu_z[t] + rest,
// with w the transforms' factor. It is solved exactly (to round-off) by an aligned binary tree of
// ranges: a range's end values are p + near u_near + far u_far in its two outer neighbours, with
// (near, far) the same for every range of a level (constant coefficients). The way up joins
// neighbouring ranges in place, the chain's slots keeping each join's inner ends; the top closes the
// cycle; the way down computes each join's two inner values from its outer neighbours, so every point
// is computed once, from what the way up left in its slot.
//
// Why a tree: the same joins in the same order whatever splits the chain into aligned parts, so a
// chain split over tiles (parts of 2^k points) gives the bits of the whole chain, and the parts need
// only exchange their ends (two numbers a chain) instead of being transposed. Where sigma = 0 the
// chain's constants are null: the pseudo-inverse (mean of f taken out, the cycle pinned, mean of u
// taken out), on the whole chain.
//
// Written once for the CPU and the CUDA kernels (no FMA contraction on either side): the same bits.
// The value type V is a double, or on the CPU a vector of neighbouring lines' values (their lanes
// run the same operations in the same order: the same bits as one line at a time).
#pragma once
#include <type_traits>

#include "spectral_formulae.hpp"

namespace tdc {

constexpr int kMaxChainLevels = 12;  // chains up to kMaxSpectralLength points

// A level's coefficients: a range of 2^k points has ends p + near u_near + far u_far; 1 / (1 - near^2)
// solves its join with its neighbour.
template <class V = double>
struct ChainLevels {
  V near[kMaxChainLevels], far[kMaxChainLevels], inv_d[kMaxChainLevels];
};

// The chain's equation for mode (m, level k's cycle position): its a, b and the factor of f.
template <class V = double>
struct ChainRow {
  V a = 0.0, b = 0.0, w = 0.0;
  bool singular = false;  // sigma == 0: the constants are null
};
TDC_HD ChainRow<> chain_row(const SpectralPlan& p, const double* tab, int m, int k) {
  const int t = int(tab[p.cycle_position + k]);
  const double sigma = (tab[p.mu_x + m] + tab[p.mu_z + t]) + p.rest;
  ChainRow<> r;
  r.a = p.d * p.chain_an;
  r.b = p.d * (sigma - 2.0 * p.chain_an);
  r.w = p.chain_scale / r.b;
  r.singular = sigma == 0.0;
  return r;
}

template <class V>
TDC_HD void chain_levels(const ChainRow<V>& r, int top, ChainLevels<V>& c) {
  V nr = -(r.a / r.b), fr = nr;
  for (int k = 0; k <= top; ++k) {
    const V inv_d = 1.0 / (1.0 - nr * nr);
    c.near[k] = nr;
    c.far[k] = fr;
    c.inv_d[k] = inv_d;
    const V f2 = (fr * fr) * inv_d;
    nr = nr + nr * f2;
    fr = f2;
  }
}

// Slots of leaves: leaf i's left and right end values. A chain's points (a leaf a point, or a block
// of `unit` points: its first and last), a part's ends in an array (2 i, 2 i + 1).
template <class Point>
struct PointSlots {
  Point point;
  int unit;
  TDC_HD decltype(auto) left(int i) const { return point(i * unit); }
  TDC_HD decltype(auto) right(int i) const { return point(i * unit + unit - 1); }
};
// A point accessor's value type.
template <class Point>
using ValueOf = std::remove_reference_t<decltype(std::declval<const Point&>()(0))>;
// (Parts of one point have one value: both slots are its first.)
struct EndSlots {
  double* e;
  bool point;
  TDC_HD double& left(int i) const { return e[2 * i]; }
  TDC_HD double& right(int i) const { return e[2 * i + (point ? 0 : 1)]; }
};

// A chain's points in an array.
template <class V = double>
struct ArrayPoints {
  V* a;
  TDC_HD V& operator()(int q) const { return a[q]; }
};

// The way up over n leaves of level k0 (ranges of 2^k0 points), to one range of level k0 + log2 n.
template <class Slots, class V>
TDC_HD void chain_up(const Slots& s, int n, const ChainLevels<V>& c, int k0) {
  for (int h = 1, k = k0; h < n; h *= 2, ++k) {
    const V nr = c.near[k], fr = c.far[k], inv_d = c.inv_d[k];
    for (int l = 0; l < n; l += 2 * h) {
      const V al = s.left(l), ar = s.right(l + h - 1), bl = s.left(l + h), br = s.right(l + 2 * h - 1);
      s.left(l) = al + fr * ((bl + nr * ar) * inv_d);
      s.right(l + 2 * h - 1) = br + fr * ((ar + nr * bl) * inv_d);
    }
  }
}

// The way down: the leaves' outer neighbours are ul (left of leaf 0) and ur (right of leaf n - 1);
// every join's inner ends become values. The leaves' own outer ends are the caller's. Joins of two
// points (k0 = 0, h = 1) are skipped: both are ends of larger ranges, whose joins gave their values.
template <class Slots, class V>
TDC_HD void chain_down(const Slots& s, int n, const ChainLevels<V>& c, int k0, V ul, V ur) {
  if (n < 2) return;
  for (int h = n / 2, k = k0 + spectral_log2(n) - 1; h >= (k0 == 0 ? 2 : 1); h /= 2, --k) {
    const V nr = c.near[k], fr = c.far[k], inv_d = c.inv_d[k];
    for (int l = 0; l < n; l += 2 * h) {
      const V vl = l == 0 ? ul : V(s.right(l - 1)), vr = l + 2 * h == n ? ur : V(s.left(l + 2 * h));
      const V x = s.right(l + h - 1) + fr * vl, y = s.left(l + h) + fr * vr;
      s.right(l + h - 1) = (x + nr * y) * inv_d;
      s.left(l + h) = (y + nr * x) * inv_d;
    }
  }
}

// The cycle's closure on the whole chain's range (level k): its first and last values (u_last is
// its left neighbour, u_first its right one). Singular: the last pinned to 0.
template <class V>
TDC_HD void chain_close(V& first, V& last, const ChainLevels<V>& c, int k, bool singular) {
  const V nr = c.near[k], one_far = 1.0 - c.far[k];
  const V pl = first, pr = last;
  if (singular) {
    first = pl / one_far;
    last = V(0.0);
    return;
  }
  const V det = (one_far - nr) * (one_far + nr);
  first = (one_far * pl + nr * pr) / det;
  last = (one_far * pr + nr * pl) / det;
}

// Pairwise sum of n (a power of two) values, aligned (the same additions for any split into
// aligned parts): a binary counter of partial sums.
template <class Point>
TDC_HD ValueOf<Point> chain_sum(const Point& point, int n) {
  ValueOf<Point> partial[kMaxChainLevels];
  for (int q = 0; q < n; ++q) {
    ValueOf<Point> v = point(q);
    int k = 0;
    for (; (q >> k) & 1; ++k) v = partial[k] + v;
    partial[k] = v;
  }
  int top = 0;
  while ((1 << top) < n) ++top;
  return partial[top];
}

// Blocks of 2^kChainBlockBits points (fewer in shorter parts) run their levels in registers, the
// leaves with the way up and the way down's last levels: each point is read and written once a way
// there (the CUDA kernels' traffic); the same joins as point by point.
constexpr int kChainBlockBits = 4;

template <int B, class In, class Point, class V>
TDC_HD void chain_blocks_up(const In& in, const Point& point, int n, const ChainLevels<V>& c, V w, V shift) {
  for (int q0 = 0; q0 < n; q0 += B) {
    V v[B];
#pragma unroll
    for (int i = 0; i < B; ++i) v[i] = (in(q0 + i) - shift) * w;
    const ArrayPoints<V> local{v};
    chain_up(PointSlots<ArrayPoints<V>>{local, 1}, B, c, 0);
#pragma unroll
    for (int i = 0; i < B; ++i) point(q0 + i) = v[i];
  }
  chain_up(PointSlots<Point>{point, B}, n / B, c, spectral_log2(B));
}
template <int B, class Point, class V>
TDC_HD void chain_blocks_down(const Point& point, int n, const ChainLevels<V>& c, V ul, V ur) {
  chain_down(PointSlots<Point>{point, B}, n / B, c, spectral_log2(B), ul, ur);
  for (int q0 = 0; q0 < n; q0 += B) {
    V v[B];
#pragma unroll
    for (int i = 0; i < B; ++i) v[i] = point(q0 + i);
    const V vl = q0 == 0 ? ul : V(point(q0 - 1)), vr = q0 + B == n ? ur : V(point(q0 + B));
    const ArrayPoints<V> local{v};
    chain_down(PointSlots<ArrayPoints<V>>{local, 1}, B, c, 0, vl, vr);
#pragma unroll
    for (int i = 0; i < B; ++i) point(q0 + i) = v[i];
  }
}

// The leaves p = (f - shift) w of a part of n points (f from `in`, p into `point`, which may be
// in's points) and the way up to the part's range: its ends in its first and last point.
template <class In, class Point, class V>
TDC_HD void chain_part_up(const In& in, const Point& point, int n, const ChainLevels<V>& c, V w, V shift) {
  constexpr int B = 1 << kChainBlockBits;
  if (n >= B) return chain_blocks_up<B>(in, point, n, c, w, shift);
  if (n == 8) return chain_blocks_up<8>(in, point, n, c, w, shift);
  if (n == 4) return chain_blocks_up<4>(in, point, n, c, w, shift);
  if (n == 2) return chain_blocks_up<2>(in, point, n, c, w, shift);
  return chain_blocks_up<1>(in, point, n, c, w, shift);
}

// The way down on a part whose first and last points hold their values and whose neighbours are
// ul and ur.
template <class Point, class V>
TDC_HD void chain_part_down(const Point& point, int n, const ChainLevels<V>& c, V ul, V ur) {
  constexpr int B = 1 << kChainBlockBits;
  if (n >= B) return chain_blocks_down<B>(point, n, c, ul, ur);
  if (n == 8) return chain_blocks_down<8>(point, n, c, ul, ur);
  if (n == 4) return chain_blocks_down<4>(point, n, c, ul, ur);
  if (n == 2) return chain_blocks_down<2>(point, n, c, ul, ur);
}

// A whole chain of n points, f (in) -> u (point, may be in's points): the pseudo-inverse where singular.
template <class In, class Point, class V>
TDC_HD void chain_solve_whole(const In& in, const Point& point, int n, const ChainRow<V>& r) {
  const int top = spectral_log2(n);
  ChainLevels<V> c;
  chain_levels(r, top, c);
  const V mean = r.singular ? V(chain_sum(in, n) / double(n)) : V(0.0);
  chain_part_up(in, point, n, c, r.w, mean);
  V first = point(0), last = point(n - 1);
  chain_close(first, last, c, top, r.singular);
  point(0) = first;
  point(n - 1) = last;
  chain_part_down(point, n, c, last, first);
  if (r.singular) {
    const V u_mean = chain_sum(point, n) / double(n);
    for (int q = 0; q < n; ++q) point(q) = point(q) - u_mean;
  }
}

// A chain split into G aligned parts of n points each (nonsingular): after each part's way up
// (chain_part_up), `ends` holds part g's ends at 2 g, 2 g + 1. Joins the parts, closes the cycle and
// comes down to the parts' ends: part g's values at s.left(g), s.right(g) (s = chain_top's slots).
// Every part runs this on the same ends: the same bits as the whole chain.
TDC_HD EndSlots chain_top(double* ends, int parts, int n, const ChainLevels<>& c) {
  const int kp = spectral_log2(n), top = kp + spectral_log2(parts);
  const EndSlots s{ends, n == 1};
  chain_up(s, parts, c, kp);
  chain_close(s.left(0), s.right(parts - 1), c, top, false);
  chain_down(s, parts, c, kp, double(s.right(parts - 1)), double(s.left(0)));
  return s;
}

}  // namespace tdc
