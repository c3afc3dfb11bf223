// The anisotropic 7-point column operator of paper 002 (eq. 18) and its vertical line
// preconditioner (eq. 19, Thomas algorithm), as plain formulae shared by every CPU and CUDA kernel.
//
// y_ijk = d_k [ c0_k x_ijk + cb_k x_ij,k+1 + cc_k x_ij,k-1
//               + ae x_i+1 + aw x_i-1 + an x_j+1 + as x_j-1 ]
// with per-level vectors stored once (the matrix-free idea: nothing per cell) and per-edge horizontal
// couplings that are the same for every column of the regular horizontal grid. ae != aw (or an != as)
// makes the operator nonsymmetric (a centred first-derivative term), which GCR handles and PCG not.
// Vertical boundaries are zero-flux: cb at the top and cc at the bottom level are zero.
#pragma once
#include "../common/tile_layout.hpp"

namespace tdc {

// Horizontal couplings of a column to its four neighbours (paper 002: alpha_{T,T'}), and |T|.
struct ColumnCouplings {
  double ae = 0, aw = 0, an = 0, as = 0;
};

// Offsets of the per-level coefficient vectors inside the coefficient array (kLevelVectors * nz).
enum LevelVector : int {
  kC0 = 0,     // (a'_k - b'_k - c'_k) |T| - alpha_T      (diagonal, before the factor d_k)
  kCb,         // |T| b'_k                                 (coupling to k+1)
  kCc,         // |T| c'_k                                 (coupling to k-1)
  kD,          // d_k
  kInvAd,      // 1 / (|T| d_k)                            (Thomas: right-hand side scaling)
  kCprime,     // c'_k                                     (Thomas: sub-diagonal)
  kInvPivot,   // 1 / D_k                                  (Thomas: pivots, eq. 19 with alpha~)
  kPhi,        // phi_k = b'_k / D_k                       (Thomas: super-diagonal after elimination)
  kLevelVectors
};

TDC_HD double coef(const double* c, int vec, int nz, int k) { return c[vec * nz + k]; }

// y at cell (i, j, k) of x; x must hold valid halo cells (width >= 1).
TDC_HD double apply_cell(const TileLayout& L, const ColumnCouplings& h, const double* c, const double* x, int i,
                         int j, int k) {
  const int nz = L.nz;
  const int ku = k + 1 < nz ? k + 1 : k;  // the zero coefficient makes the clamped value irrelevant
  const int kd = k > 0 ? k - 1 : k;
  const std::ptrdiff_t s = L.at(i, j, k);
  const double v = coef(c, kC0, nz, k) * x[s] + coef(c, kCb, nz, k) * x[L.at(i, j, ku)] +
                   coef(c, kCc, nz, k) * x[L.at(i, j, kd)] + h.ae * x[s + 1] + h.aw * x[s - 1] +
                   h.an * x[s + L.sx()] + h.as * x[s - L.sx()];
  return v * coef(c, kD, nz, k);
}

// Fills the Thomas vectors (kInvAd, kCprime, kInvPivot, kPhi) from kC0, kCb, kCc and kD, for columns of
// area |T|: the rows of eq. (19) are  c'_k x_{k-1} + (c0_k / |T|) x_k + b'_k x_{k+1} = y_k / (|T| d_k).
inline void finish_thomas_vectors(double* c, int nz, double area) {
  double phi_below = 0.0;
  for (int k = 0; k < nz; ++k) {
    c[kInvAd * nz + k] = 1.0 / (area * c[kD * nz + k]);
    c[kCprime * nz + k] = c[kCc * nz + k] / area;
    const double pivot = c[kC0 * nz + k] / area - (k > 0 ? phi_below * c[kCprime * nz + k] : 0.0);
    c[kInvPivot * nz + k] = 1.0 / pivot;
    c[kPhi * nz + k] = (c[kCb * nz + k] / area) / pivot;
    phi_below = c[kPhi * nz + k];
  }
}

// Thomas forward step at level k: w_k from r_k and w_{k-1} (w_{-1} = 0).
TDC_HD double thomas_forward(const double* c, int nz, int k, double r, double w_below) {
  return (r * coef(c, kInvAd, nz, k) - coef(c, kCprime, nz, k) * w_below) * coef(c, kInvPivot, nz, k);
}
// Thomas backward step at level k < nz-1: z_k from w_k and z_{k+1}.
TDC_HD double thomas_backward(const double* c, int nz, int k, double w, double z_above) {
  return w - coef(c, kPhi, nz, k) * z_above;
}

}  // namespace tdc

namespace tdc {

// What every elliptic task carries by value: the tile shape, the horizontal couplings, and the
// `done` level from which the task is skipped (see solver_scalars/solver_state.hpp).
struct EllipticTaskArgs {
  TileLayout L;
  ColumnCouplings h;
  int skip_from = 2;
};

}  // namespace tdc
