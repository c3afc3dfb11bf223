// The vertical pass of the spectral preconditioner where the level coefficients vary with height:
// after the x and y transforms every horizontal mode (m, n) is decoupled from the others (the
// horizontal couplings are the same on every level and symmetric, so the Hartley transforms still
// diagonalise them), and what is left on each vertical cycle is the operator's rows with the
// horizontal part replaced by its eigenvalue lam = mu_x[m] + mu_y[n]:
//   lower_t z_{t-1} + (diag_t + lam) z_t + upper_t z_{t+1} = r_t / d_t     (t mod lc, cycle order)
// a cyclic tridiagonal system (periodic columns; under rigid lids the mirror closes the column's two
// chains into one cycle the same way). It is solved directly, the "cyclic Thomas" way: position 0's
// value is the one unknown that closes the cycle, the chain 1 .. lc-1 is solved once for the
// right-hand side (u) and once for position 0's couplings (v), z = u + z_0 v, and row 0 gives z_0.
// Where the rows sum to 0 and lam = 0, the cycle's constants are null: z_0 = 0 (row 0 is implied by
// the others for a compatible r) and the mean over the cycle is taken out, so that z has no null
// component, as the transform path's 0 for its null modes.
// Written once for the CPU line loop and the one-thread-per-line CUDA kernel: the same operations in
// the same order, so the same bits.
#pragma once
#include "spectral_formulae.hpp"

namespace tdc {

// Whether mode (m, n) (global indices) meets the cycles' null space.
TDC_HD bool column_mode_is_null(const SpectralPlan& p, const double* tab, int m, int n) {
  return p.null_chains != 0 && tab[p.mu_x + m] == 0.0 && tab[p.mu_y + n] == 0.0;
}

// Solves the vertical lines l .. l + W - 1 of `in` into `out` (may be the same view): lc points each,
// in cycle order. The lines are neighbouring columns (l % W == 0, W <= the view's nx), so point t of
// lane w sits at line l's offset + w: the CPU runs W lanes side by side (a vector of lanes), the GPU
// one; every lane does the same operations in the same order, so the same bits for any W.
// phi, v: lc W doubles of scratch each (the eliminated super-diagonal and the second solution).
template <int W>
TDC_HD void column_solve(const SpectralPlan& p, const double* tab, int l, SpectralView in, SpectralView out,
                         double* phi, double* v) {
  const int n = 1 << p.bz;
  double lam[W], u_prev[W], v_prev[W], phi_prev[W], u_next[W], v_next[W], sum[W], z0[W], mean[W];
  bool null_mode[W];
  for (int w = 0; w < W; ++w) {
    int m, nn;
    line_mode(p, l + w, m, nn);
    lam[w] = tab[p.mu_x + m] + tab[p.mu_y + nn];
    null_mode[w] = column_mode_is_null(p, tab, m, nn);
    u_prev[w] = v_prev[w] = phi_prev[w] = 0.0;
  }
  const long row0 = long(l >> (p.bx + p.by)) << p.bz;  // the cycle's first row in the tables
  const double* lower = tab + p.row_lower + row0;
  const double* upper = tab + p.row_upper + row0;
  const double* diag = tab + p.row_diag + row0;
  const double* scale = tab + p.row_scale + row0;
  // Forward elimination down the chain 1 .. n-1 (u' into out, v' and phi into the scratch).
  for (int t = 1; t < n; ++t) {
    double vr = 0.0;  // position 0's couplings, moved to the right-hand side
    if (t == 1) vr = vr - lower[1];
    if (t == n - 1) vr = vr - upper[n - 1];
    const double lo = lower[t], up = t < n - 1 ? upper[t] : 0.0, di = diag[t], sc = scale[t];
    const double* r = in.p + line_offset(p, tab, 2, in, l, t);
    double rt[W];  // (read whole before out, which may be in, is written)
    for (int w = 0; w < W; ++w) rt[w] = r[w];
    for (int w = 0; w < W; ++w) {
      const double inv_pivot = 1.0 / ((di + lam[w]) - lo * phi_prev[w]);
      u_prev[w] = (rt[w] * sc - lo * u_prev[w]) * inv_pivot;
      v_prev[w] = (vr - lo * v_prev[w]) * inv_pivot;
      phi_prev[w] = up * inv_pivot;
      phi[t * W + w] = phi_prev[w];
      v[t * W + w] = v_prev[w];
    }
    double* u = out.p + line_offset(p, tab, 2, out, l, t);
    for (int w = 0; w < W; ++w) u[w] = u_prev[w];
  }
  // Back substitution up the chain (u in out, v in place), with the sum of u for the null modes.
  for (int w = 0; w < W; ++w) {
    u_next[w] = sum[w] = u_prev[w];
    v_next[w] = v_prev[w];
  }
  for (int t = n - 2; t >= 1; --t) {
    double* u = out.p + line_offset(p, tab, 2, out, l, t);
    for (int w = 0; w < W; ++w) {
      u_next[w] = u[w] - phi[t * W + w] * u_next[w];
      v_next[w] = v[t * W + w] - phi[t * W + w] * v_next[w];
      sum[w] = sum[w] + u_next[w];
    }
    for (int w = 0; w < W; ++w) u[w] = u_next[w];
    for (int w = 0; w < W; ++w) v[t * W + w] = v_next[w];
  }
  // Row 0 closes the cycle: u_1 = u_next, u_{n-1} = u_prev (the same point when n = 2).
  const double* r0 = in.p + line_offset(p, tab, 2, in, l, 0);
  for (int w = 0; w < W; ++w) {
    const double rhs = r0[w] * scale[0];
    z0[w] = null_mode[w] ? 0.0
                         : ((rhs - upper[0] * u_next[w]) - lower[0] * u_prev[w]) /
                               (((diag[0] + lam[w]) + upper[0] * v_next[w]) + lower[0] * v_prev[w]);
    mean[w] = null_mode[w] ? sum[w] / double(n) : 0.0;
  }
  double* z = out.p + line_offset(p, tab, 2, out, l, 0);
  for (int w = 0; w < W; ++w) z[w] = z0[w] - mean[w];
  for (int t = 1; t < n; ++t) {
    double* u = out.p + line_offset(p, tab, 2, out, l, t);
    for (int w = 0; w < W; ++w) u[w] = null_mode[w] ? u[w] - mean[w] : u[w] + z0[w] * v[t * W + w];
  }
}

}  // namespace tdc
