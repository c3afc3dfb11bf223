// The column operators of the elliptic solvers, as plain formulae shared by every CPU and CUDA kernel:
// the anisotropic 7-point operator of paper 002 (eq. 18) and, with neighbours two cells away, EULAG's
// laplc on the collocated grid (the divergence of the centred gradient, paper 000 §5.4), plus their
// vertical line preconditioner (paper 002 eq. 19, paper 000 Alg. 2: Thomas, with stride 2 for laplc).
//
// y_ijk = d_k [ c0_k x_ijk + cb_k x_ij,k+s + cc_k x_ij,k-s
//               + ae x_i+h + aw x_i-h + an x_j+h + as x_j-h ]          (h, s: horizontal, vertical stride)
// with per-level vectors stored once (the matrix-free idea: nothing per cell) and per-edge horizontal
// couplings that are the same for every column of the regular horizontal grid. ae != aw (or an != as)
// makes the operator nonsymmetric (a centred first-derivative term), which GCR handles and PCG not.
// Vertical boundaries (z_wrap): zero flux (cb is zero on the top s levels, cc on the bottom s),
// periodic (the couplings wrap around), or mirror (a neighbour beyond a lid is its mirror image about
// the lid, level -1-m for -1-m below, 2 nz-1-m above: laplc under rigid lids with p even about them).
// The line preconditioner drops the wrapped and mirrored couplings.
#pragma once
#include <type_traits>

#include "../common/tile_layout.hpp"

namespace tdc {

// Horizontal couplings of a column to its four neighbours (paper 002: alpha_{T,T'}), and the strides.
struct ColumnCouplings {
  double ae = 0, aw = 0, an = 0, as = 0;
  int h = 1;       // horizontal neighbours at i +- h, j +- h (2 for laplc; the halo must be >= h)
  int s = 1;       // vertical neighbours at k +- s
  int z_wrap = 0;  // kZeroFlux, kWrapPeriodic or kWrapMirror
};
constexpr int kZeroFlux = 0, kWrapPeriodic = 1, kWrapMirror = 2;

// Offsets of the per-level coefficient vectors inside the coefficient array (kLevelVectors * nz).
enum LevelVector : int {
  kC0 = 0,    // (a'_k - b'_k - c'_k) |T| - alpha_T      (diagonal, before the factor d_k)
  kCb,        // |T| b'_k                                 (coupling to k+s)
  kCc,        // |T| c'_k                                 (coupling to k-s)
  kD,         // d_k
  kInvAd,     // 1 / (|T| d_k)                            (Thomas: right-hand side scaling)
  kCprime,    // c'_k                                     (Thomas: sub-diagonal, 0 where it would wrap)
  kInvPivot,  // 1 / D_k                                  (Thomas: pivots, eq. 19 with alpha~)
  kPhi,       // phi_k = b'_k / D_k                       (Thomas: super-diagonal after elimination)
  kInvDiag,   // 1 / (c0_k d_k)                           (Jacobi: the inverse of the diagonal)
  kLevelVectors
};

TDC_HD double coef(const double* c, int vec, int nz, int k) { return c[vec * nz + k]; }

// y at cell (i, j, k) of a field read through x_at(di, dj, kk), the value at (i + di, j + dj, kk) with
// di, dj in {0, +-h.h} (horizontally within h.h of the interior; levels as the z rule gives them), so
// that a kernel can form x on the fly. Offsets rather than indices: an accessor forms each address
// from the cell's own, and the literal 0 of most calls folds away (index arithmetic, not the values,
// bounded the fused multigrid sweeps on the GPU).
// The levels the couplings of level k reach, s above (cb) and s below (cc), by the vertical rule.
// With zero flux beyond a lid the level itself: its zero coefficient makes the value irrelevant.
TDC_HD int level_above(const ColumnCouplings& h, int nz, int k) {
  const int u = k + h.s;
  return u < nz ? u : h.z_wrap == kWrapPeriodic ? u - nz : h.z_wrap == kWrapMirror ? 2 * nz - 1 - u : k;
}
TDC_HD int level_below(const ColumnCouplings& h, int nz, int k) {
  const int d = k - h.s;
  return d >= 0 ? d : h.z_wrap == kWrapPeriodic ? d + nz : h.z_wrap == kWrapMirror ? h.s - k - 1 : k;
}

template <class X>
TDC_HD double apply_cell_from(const TileLayout& L, const ColumnCouplings& h, const double* c, int i, int j, int k,
                              X&& x_at) {
  const int nz = L.nz;
  const int ku = level_above(h, nz, k), kd = level_below(h, nz, k);
  const double v = coef(c, kC0, nz, k) * x_at(0, 0, k) + coef(c, kCb, nz, k) * x_at(0, 0, ku) +
                   coef(c, kCc, nz, k) * x_at(0, 0, kd) + h.ae * x_at(h.h, 0, k) + h.aw * x_at(-h.h, 0, k) +
                   h.an * x_at(0, h.h, k) + h.as * x_at(0, -h.h, k);
  return v * coef(c, kD, nz, k);
}

// The strides as compile-time constants where they take the usual values (laplc: 2 and 2; paper
// 002's operator: 1 and 1), so that a kernel's index maps shift and offset by constants (the fused
// multigrid sweeps were bound by index arithmetic). S = 0 keeps them as they come.
template <int S>
TDC_HD ColumnCouplings with_strides(ColumnCouplings h) {
  if (S > 0) h.h = h.s = S;
  return h;
}
// Calls f(std::integral_constant<int, S>) with the S that h's strides allow.
template <class F>
void with_stride_constant(const ColumnCouplings& h, F&& f) {
  if (h.h == 2 && h.s == 2)
    f(std::integral_constant<int, 2>{});
  else if (h.h == 1 && h.s == 1)
    f(std::integral_constant<int, 1>{});
  else
    f(std::integral_constant<int, 0>{});
}

// An array's accessor for apply_cell_from at cell (i, j, k) (x with a valid halo).
struct ArrayAt {
  const double* x;
  std::ptrdiff_t o, plane;
  int sx, k;
  TDC_HD ArrayAt(const TileLayout& L, const double* a, int i, int j, int kc)
      : x(a), o(L.at(i, j, kc)), plane(L.plane()), sx(L.sx()), k(kc) {}
  TDC_HD double operator()(int di, int dj, int kk) const { return x[o + (di + dj * sx) + plane * (kk - k)]; }
};

// A ghost index's periodic image in [0, n) (|i| within n of the interior).
TDC_HD int periodic_image(int i, int n) { return i < 0 ? i + n : (i >= n ? i - n : i); }

// The accessor for an array whose tile is the whole horizontally periodic domain: a neighbour beyond
// the interior is read at its periodic image, so the ghost ring need not be filled first.
struct PeriodicAt {
  const double* x;
  std::ptrdiff_t o, plane;
  int sx, i, j, k, nx, ny;
  TDC_HD PeriodicAt(const TileLayout& L, const double* a, int ic, int jc, int kc)
      : x(a), o(L.at(ic, jc, kc)), plane(L.plane()), sx(L.sx()), i(ic), j(jc), k(kc), nx(L.nx), ny(L.ny) {}
  TDC_HD double operator()(int di, int dj, int kk) const {
    const int ia = di == 0 ? i : periodic_image(i + di, nx), jb = dj == 0 ? j : periodic_image(j + dj, ny);
    return x[o + ((ia - i) + (jb - j) * sx) + plane * (kk - k)];
  }
};

// y at cell (i, j, k) of x; x must hold valid halo cells (width >= h.h).
TDC_HD double apply_cell(const TileLayout& L, const ColumnCouplings& h, const double* c, const double* x, int i, int j,
                         int k) {
  return apply_cell_from(L, h, c, i, j, k, ArrayAt(L, x, i, j, k));
}

// Fills the Thomas vectors (kInvAd, kCprime, kInvPivot, kPhi) and kInvDiag from kC0, kCb, kCc and kD, for columns of
// area |T| and vertical stride s: the rows of eq. (19) are
//   c'_k x_{k-s} + (c0_k / |T|) x_k + b'_k x_{k+s} = y_k / (|T| d_k),
// s interleaved tridiagonal systems per column; couplings that would wrap around are dropped.
inline void finish_thomas_vectors(double* c, int nz, double area, int s = 1) {
  for (int k = 0; k < nz; ++k) {
    c[kInvDiag * nz + k] = 1.0 / (c[kC0 * nz + k] * c[kD * nz + k]);
    c[kInvAd * nz + k] = 1.0 / (area * c[kD * nz + k]);
    c[kCprime * nz + k] = k >= s ? c[kCc * nz + k] / area : 0.0;
    const double phi_below = k >= s ? c[kPhi * nz + k - s] : 0.0;
    const double pivot = c[kC0 * nz + k] / area - phi_below * c[kCprime * nz + k];
    c[kInvPivot * nz + k] = 1.0 / pivot;
    c[kPhi * nz + k] = k + s < nz ? (c[kCb * nz + k] / area) / pivot : 0.0;
  }
}

// Thomas forward step at level k: w_k from r_k and w_{k-s} (0 below the column).
TDC_HD double thomas_forward(const double* c, int nz, int k, double r, double w_below) {
  return (r * coef(c, kInvAd, nz, k) - coef(c, kCprime, nz, k) * w_below) * coef(c, kInvPivot, nz, k);
}
// Thomas backward step at level k: z_k from w_k and z_{k+s} (phi is 0 where k+s is outside).
TDC_HD double thomas_backward(const double* c, int nz, int k, double w, double z_above) {
  return w - coef(c, kPhi, nz, k) * z_above;
}

// A queue of the last two values of a sweep, so that stride 1 and 2 share one code path.
struct SweepQueue {
  double v1 = 0.0, v2 = 0.0;  // the values 1 and 2 levels back
  TDC_HD double back(int s) const { return s == 1 ? v1 : v2; }
  TDC_HD void push(double v) {
    v2 = v1;
    v1 = v;
  }
};

// What every elliptic task carries by value: the tile shape, the operator's couplings, and the
// `done` level from which the task is skipped (see solver_scalars/solver_state.hpp).
struct EllipticTaskArgs {
  TileLayout L;
  ColumnCouplings h;
  int skip_from = 2;
};

}  // namespace tdc
