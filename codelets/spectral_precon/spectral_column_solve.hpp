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

// Solves vertical line l of `in` into `out` (may be the same view): lc points in cycle order.
// phi, v: lc doubles of scratch each (the eliminated super-diagonal and the second solution).
TDC_HD void column_solve(const SpectralPlan& p, const double* tab, int l, SpectralView in, SpectralView out,
                         double* phi, double* v) {
  const int n = 1 << p.bz;
  int m, nn;
  line_mode(p, l, m, nn);
  const double lam = tab[p.mu_x + m] + tab[p.mu_y + nn];
  const bool null_mode = column_mode_is_null(p, tab, m, nn);
  const long row0 = long(l >> (p.bx + p.by)) << p.bz;  // the cycle's first row in the tables
  const double* lower = tab + p.row_lower + row0;
  const double* upper = tab + p.row_upper + row0;
  const double* diag = tab + p.row_diag + row0;
  const double* scale = tab + p.row_scale + row0;
  // Forward elimination down the chain 1 .. n-1 (u' into out, v' and phi into the scratch).
  double u_prev = 0.0, v_prev = 0.0, phi_prev = 0.0;
  for (int t = 1; t < n; ++t) {
    const double pivot = (diag[t] + lam) - lower[t] * phi_prev;
    double vr = 0.0;  // position 0's couplings, moved to the right-hand side
    if (t == 1) vr = vr - lower[1];
    if (t == n - 1) vr = vr - upper[n - 1];
    const double r = in.p[line_offset(p, tab, 2, in, l, t)] * scale[t];
    u_prev = (r - lower[t] * u_prev) / pivot;
    v_prev = (vr - lower[t] * v_prev) / pivot;
    phi_prev = t < n - 1 ? upper[t] / pivot : 0.0;
    phi[t] = phi_prev;
    v[t] = v_prev;
    out.p[line_offset(p, tab, 2, out, l, t)] = u_prev;
  }
  // Back substitution up the chain (u in out, v in place), with the sum of u for the null mode.
  double u_next = u_prev, v_next = v_prev, sum = u_prev;
  for (int t = n - 2; t >= 1; --t) {
    const long o = line_offset(p, tab, 2, out, l, t);
    u_next = out.p[o] - phi[t] * u_next;
    v_next = v[t] - phi[t] * v_next;
    out.p[o] = u_next;
    v[t] = v_next;
    sum = sum + u_next;
  }
  // Row 0 closes the cycle: u_1 = u_next, u_{n-1} = u_prev (the same point when n = 2).
  const long o0 = line_offset(p, tab, 2, in, l, 0);
  const double r0 = in.p[o0] * scale[0];
  const double z0 = null_mode ? 0.0
                              : ((r0 - upper[0] * u_next) - lower[0] * u_prev) /
                                    (((diag[0] + lam) + upper[0] * v_next) + lower[0] * v[n - 1]);
  const double mean = null_mode ? sum / double(n) : 0.0;
  out.p[line_offset(p, tab, 2, out, l, 0)] = z0 - mean;
  for (int t = 1; t < n; ++t) {
    const long o = line_offset(p, tab, 2, out, l, t);
    out.p[o] = null_mode ? out.p[o] - mean : out.p[o] + z0 * v[t];
  }
}

}  // namespace tdc
