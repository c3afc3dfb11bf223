// The exact inverse of a separable column operator (column_operator.hpp) by real Hartley transforms,
// as plain formulae shared by the CPU and CUDA kernels (no StarPU). Written once and compiled without
// FMA contraction on both sides, so the two give the same bits.
//
// When the horizontal couplings are symmetric (ae = aw, an = as) and the level vectors constant, the
// operator is a sum of symmetric circulants along x, y and the vertical cycle (the levels in the
// order their up/down couplings join them: periodic wraps, the mirror of rigid lids joins a column's
// two interleaved chains into one cycle). The discrete Hartley transform H (cas = cos + sin) of each
// axis diagonalises its circulant, so A^{-1} = H^{-1} diag(1 / sigma) H with H^{-1} = H / n per axis:
// the "line" preconditioner made exact for every horizontal mode at once (the FFT + vertical solve of
// the classic fast elliptic solvers, here with the vertical solve diagonal too). Where sigma is 0 (the
// operator's null space: constants per lattice) the inverse is 0, so M is A's pseudo-inverse,
// symmetric and positive semi-definite as PCG needs. Along y the solve takes each mode's chains
// directly once the other axes are transformed (spectral_chain_solve.hpp: the same inverse, and a
// chain splits over tiles without a transpose). Where the level vectors vary with height, the x and
// y transforms stay and the vertical pass solves each mode's cycles directly
// (spectral_column_solve.hpp).
//
// A Hartley transform of two real lines a, b at once: X = FFT(a + i b) (radix 2, in place, the input
// in bit-reversed order), then with X[m] = p + i q and X[n - m] = u + i v,
//   2 H_a[m] = (p + u) - (q - v),   2 H_b[m] = (p - u) + (q + v).
// The factor 2 of each transform is kept and divided out once, in the chains' or the direct
// vertical solve's factor (all factors are powers of two, so exact).
#pragma once
#include "../common/tile_layout.hpp"

namespace tdc {

// The longest lines the transforms take: along x and y (a line pair a GPU block at 2048), and the
// vertical cycles (the direct column solve holds two cycles' worth of scratch a GPU thread).
constexpr int kMaxSpectralLength = 2048;
constexpr int kMaxSpectralCycle = 1024;

struct Cplx {
  double re, im;
};

// Where the plan's tables sit in its table vector (doubles), and the symbol's constants.
struct SpectralPlan {
  int nx = 0, ny = 0, nz = 0;  // the lines' extent: the whole domain, or a slab's or a column's part
  int m0 = 0, n0 = 0, k0 = 0;  // the global x, y and level index of the part's cell (0, 0, 0) (its modes)
  int lc = 0;                  // length of a vertical cycle; nz / lc cycles
  int bx = 0, by = 0, bz = 0;  // log2 of nx, ny and lc
  double scale = 0.0;          // the direct vertical solve's: 1 / (16 nx ny), the four transforms' factor
  // The chains along y (spectral_chain_solve.hpp): y couples to y +- hy with an; the four x and
  // vertical transforms' factor 1 / (16 nx lc); the chains' null lines (sigma = 0, global ids i + nx k).
  int hy = 1;
  double chain_an = 0.0, chain_scale = 0.0;
  int null_lines = 0;
  long null_line_ids = 0;
  double d = 1.0;              // the operator's factor d
  double rest = 0.0;           // c0 + 2 (ae + an + cz): 0 for laplc (singular, constants per lattice)
  long cos_x = 0, sin_x = 0, cos_y = 0, sin_y = 0, cos_z = 0, sin_z = 0;  // exp(-2 pi i k / n), k < n / 2
  long mu_x = 0, mu_y = 0, mu_z = 0;  // each axis's eigenvalues: a (2 cos(2 pi m h / n) - 2)
  long level = 0;                     // the level at cycle c, position t: level[c lc + t]
  long cycle_position = 0;            // the inverse: level k's position t in its cycle
  // Level coefficients that vary with height (or unequal up and down couplings): the vertical pass
  // solves each cycle's rows directly (spectral_column_solve.hpp) instead of transforming it.
  int columns = 0;                  // 1: the direct vertical solve
  int null_chains = 0;              // 1: every row sums to 0, so each cycle's constants are null at lam = 0
  long row_lower = 0, row_upper = 0;  // the coupling to position t - 1 and t + 1, at [c lc + t]
  long row_diag = 0, row_scale = 0;   // c0 + 2 (ae + an), and scale / d of the row
  long table_doubles = 0;
  int skip_from = 2;  // the solver's skip protocol (solver_state.hpp)
};

TDC_HD int spectral_log2(int n) {
  int e = 0;
  while ((1 << e) < n) ++e;
  return e;
}
TDC_HD int bit_reverse(int t, int bits) {
#if defined(__CUDA_ARCH__)
  return bits == 0 ? 0 : int(__brev(unsigned(t)) >> (32 - bits));
#endif
  int r = 0;
  for (int b = 0; b < bits; ++b, t >>= 1) r = (r << 1) | (t & 1);
  return r;
}

// The radix-2 butterfly (a, c) <- (a + w c, a - w c), w = wr + i wi: every form of the transform calls
// this, so that the CPU's line loop and the GPU's register rounds give the same bits.
TDC_HD void butterfly(Cplx& a, Cplx& c, double wr, double wi) {
  const double tr = wr * c.re - wi * c.im, ti = wr * c.im + wi * c.re;
  const Cplx a0 = a;
  a = Cplx{a0.re + tr, a0.im + ti};
  c = Cplx{a0.re - tr, a0.im - ti};
}

// Point i of a line sits at i + (i >> pad) of its buffer: the GPU pads one slot per 32 (pad = 5) so
// that bit-reversed and strided accesses spread over the shared-memory banks; the CPU does not pad
// (pad = 30). Only addresses change, never the arithmetic.
TDC_HD int padded(int i, int pad) { return i + (i >> pad); }

// 2 H_a[m] and 2 H_b[m] from p = X[m] and u = X[n - m].
TDC_HD void hartley_of(Cplx p, Cplx u, double& ha, double& hb) {
  ha = (p.re + u.re) - (p.im - u.im);
  hb = (p.re - u.re) + (p.im + u.im);
}
// The same from the transformed pair X.
TDC_HD void hartley_pair(const Cplx* X, int n, int m, double& ha, double& hb, int pad) {
  hartley_of(X[padded(m, pad)], X[padded((n - m) & (n - 1), pad)], ha, hb);
}

// The passes of a solve. Along x, along y, along the vertical cycles (each one transform), the direct
// solve of each mode's chains along y where the other axes are transformed already
// (spectral_chain_solve.hpp: whole, or a part's way up to its ends and, from every part's ends, its
// way down), and the direct solve of every vertical cycle (spectral_column_solve.hpp).
enum SpectralPass : int {
  kPassX = 0,
  kPassY = 1,
  kPassZ = 2,
  kPassYChain = 3,
  kPassColumns = 4,
  kPassYChainUp = 5,
  kPassYChainDown = 6
};
TDC_HD bool is_chain_pass(int pass) { return pass == kPassYChain || pass == kPassYChainUp || pass == kPassYChainDown; }
TDC_HD int pass_axis(int pass) { return pass == kPassX ? 0 : pass == kPassY || is_chain_pass(pass) ? 1 : 2; }

// The whole solve, in order. Where the vertical operator is a transform (plan.columns == 0): the
// vertical and x transforms, the chains along y solved directly, the x and vertical transforms back,
// so that tiles of whole columns spanning x need only exchange their chains' ends (spectral_slabs.hpp);
// else x, y, the direct vertical solve, y, x.
struct SolvePasses {
  int pass[5];
};
TDC_HD SolvePasses solve_passes_of(const SpectralPlan& p) {
  if (p.columns) return SolvePasses{{kPassX, kPassY, kPassColumns, kPassY, kPassX}};
  return SolvePasses{{kPassZ, kPassX, kPassYChain, kPassX, kPassZ}};
}

// A pass's lines: `axis` 0 runs along x (lines are rows j + ny k), 1 along y (lines i + nx k), 2 along
// the vertical cycles (lines i + nx (j + ny c)). Line pairs are (2 l, 2 l + 1): neighbouring rows or
// columns, so a pair is the same on every worker. An array is seen through its interior origin. All
// sizes are powers of two, so every index map shifts and masks (a division by a run-time divisor is
// some 20 instructions on a GPU, 64-bit ones far more).
struct SpectralView {
  double* p;
  long sx, plane;
};
// A pass's input or output along x or y: one array, or pieces of 2^bits points of the line axis each
// (the slab form's pieces, equal boxes with the same strides), so that a pass reads and writes them
// where they lie instead of through a copy. One array: bits = 30, every point in p[0].
constexpr int kMaxPassPieces = 16;
struct PassView {
  double* p[kMaxPassPieces] = {};
  long sx = 0, plane = 0;
  int bits = 30;
  PassView() = default;
  TDC_HD PassView(const SpectralView& v) : sx(v.sx), plane(v.plane) { p[0] = v.p; }
  TDC_HD SpectralView whole() const { return SpectralView{p[0], sx, plane}; }  // (bits = 30 only)
};
TDC_HD int line_bits(const SpectralPlan& p, int axis) { return axis == 0 ? p.bx : axis == 1 ? p.by : p.bz; }
TDC_HD long line_count(const SpectralPlan& p, int axis) {
  return axis == 0 ? long(p.ny) * p.nz : axis == 1 ? long(p.nx) * p.nz : long(p.nx) * p.ny * (p.nz >> p.bz);
}
// Offset of point t of line l in view v (an array's strides).
template <class View>
TDC_HD long line_offset(const SpectralPlan& p, const double* tab, int axis, const View& v, int l, int t) {
  if (axis == 0) return t + v.sx * (l & (p.ny - 1)) + v.plane * (l >> p.by);
  if (axis == 1) return (l & (p.nx - 1)) + v.sx * t + v.plane * (l >> p.bx);
  const int i = l & (p.nx - 1), j = (l >> p.bx) & (p.ny - 1), c = l >> (p.bx + p.by);
  return i + v.sx * j + v.plane * long(tab[p.level + (c << p.bz) + t]);
}
// Point t of line l of a pass's view: in its piece t >> bits, at the piece's point t mod 2^bits.
TDC_HD double* line_point(const SpectralPlan& p, const double* tab, int axis, const PassView& v, int l, int t) {
  return v.p[t >> v.bits] + line_offset(p, tab, axis, v, l, t & ((1 << v.bits) - 1));
}
// The horizontal mode (m, n) of a vertical line.
TDC_HD void line_mode(const SpectralPlan& p, int l, int& m, int& n) {
  m = p.m0 + (l & (p.nx - 1));
  n = p.n0 + ((l >> p.bx) & (p.ny - 1));
}
TDC_HD const double* twiddle_cos(const SpectralPlan& p, const double* tab, int axis) {
  return tab + (axis == 0 ? p.cos_x : axis == 1 ? p.cos_y : p.cos_z);
}
TDC_HD const double* twiddle_sin(const SpectralPlan& p, const double* tab, int axis) {
  return tab + (axis == 0 ? p.sin_x : axis == 1 ? p.sin_y : p.sin_z);
}

}  // namespace tdc
