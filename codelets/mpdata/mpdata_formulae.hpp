// MPDATA per-cell formulae (Smolarkiewicz 1984; Smolarkiewicz & Margolin 1998; Smolarkiewicz &
// Grabowski 1990 for the non-oscillatory option), written once and called by the CPU loops and the
// CUDA kernels alike. Compiled without FMA contraction on both sides, the two give bitwise identical
// results, so a run's answer does not depend on which worker executed a task.
//
// Staggering: the Courant-number arrays c1, c2, c3 hold G-weighted (mass-flux) Courant numbers on
// the *lower* faces of each cell: c1(i,j,k) on face i-1/2, c2 on j-1/2, c3 on k-1/2. G is the
// density/Jacobian at cell centres.
#pragma once
#include "../common/tile_layout.hpp"

namespace tdc {
namespace mpdata {

struct Options {
  int iord = 2;            // number of passes: 1 = donor cell, 2 = one antidiffusive correction, ...
  bool fct = true;         // non-oscillatory (flux-corrected) option
  bool iga = false;        // infinite-gauge (variable-sign) option
  ZBoundary zb = ZBoundary::Periodic;
  double eps = 1e-15;      // keeps the ratios finite where psi vanishes
};

// The arrays one pass reads, all in the tile layout L.
struct Cells {
  TileLayout L;
  ZBoundary zb;
  TDC_HD std::ptrdiff_t at(int i, int j, int k) const { return L.at(i, j, k); }
  TDC_HD int below(int k) const { return k_below(k, L.nz, zb); }
  TDC_HD int above(int k) const { return k_above(k, L.nz, zb); }
  // Vertical face values under the boundary rule: rigid lids carry no flux.
  TDC_HD double lower_z(const double* c3, int i, int j, int k) const {
    return (k == 0 && zb == ZBoundary::Rigid) ? 0.0 : c3[at(i, j, k)];
  }
  TDC_HD double upper_z(const double* c3, int i, int j, int k) const {
    if (k + 1 < L.nz) return c3[at(i, j, k + 1)];
    return zb == ZBoundary::Periodic ? c3[at(i, j, 0)] : 0.0;
  }
};

TDC_HD double pos(double x) { return x > 0.0 ? x : 0.0; }
TDC_HD double neg(double x) { return x < 0.0 ? x : 0.0; }
TDC_HD double min3(double a, double b, double c) {
  double m = a < b ? a : b;
  return m < c ? m : c;
}
TDC_HD double fabs_(double x) { return x < 0.0 ? -x : x; }

// Donor-cell (upwind) flux through a face with Courant number c between left and right cells; the
// corrective passes of the infinite-gauge option use the linear flux c instead.
TDC_HD double face_flux(double left, double right, double c, bool linear) {
  return linear ? c : pos(c) * left + neg(c) * right;
}

// One upwind pass at cell (i,j,k): psi - div(F)/G.
TDC_HD double upwind_cell(const Cells& s, const double* psi, const double* c1, const double* c2,
                          const double* c3, const double* g, int i, int j, int k, bool linear) {
  const int kb = s.below(k), ka = s.above(k);
  const double p = psi[s.at(i, j, k)];
  const double fx0 = face_flux(psi[s.at(i - 1, j, k)], p, c1[s.at(i, j, k)], linear);
  const double fx1 = face_flux(p, psi[s.at(i + 1, j, k)], c1[s.at(i + 1, j, k)], linear);
  const double fy0 = face_flux(psi[s.at(i, j - 1, k)], p, c2[s.at(i, j, k)], linear);
  const double fy1 = face_flux(p, psi[s.at(i, j + 1, k)], c2[s.at(i, j + 1, k)], linear);
  const double fz0 = face_flux(psi[s.at(i, j, kb)], p, s.lower_z(c3, i, j, k), linear);
  const double fz1 = face_flux(p, psi[s.at(i, j, ka)], s.upper_z(c3, i, j, k), linear);
  return p - ((fx1 - fx0) + (fy1 - fy0) + (fz1 - fz0)) / g[s.at(i, j, k)];
}

// The "A" and "B" ratios: (normalised) first derivatives along and across a face. The plain scheme
// uses |psi| (so sign-changing fields stay well defined); the infinite gauge uses psi and constant
// denominators (its limit psi -> psi + c, c -> infinity).
TDC_HD double mag(double x, bool iga) { return iga ? x : fabs_(x); }
TDC_HD double ratio_a(double lo, double hi, bool iga, double eps) {
  return iga ? (hi - lo) / 2.0 : (hi - lo) / (hi + lo + eps);
}
TDC_HD double ratio_b(double hi1, double hi2, double lo1, double lo2, bool iga, double eps) {
  const double num = (hi1 + hi2) - (lo1 + lo2);
  return iga ? 0.5 * num / 4.0 : 0.5 * num / ((hi1 + hi2) + (lo1 + lo2) + eps);
}

// Antidiffusive pseudo-velocity on a face: (|U| - U^2/G) A - sum over the other directions of U V B / G.
TDC_HD double antidiffusive(double u, double g_face, double a, double v_bar, double b_v, double w_bar,
                            double b_w) {
  return (fabs_(u) - u * u / g_face) * a - u * v_bar * b_v / g_face - u * w_bar * b_w / g_face;
}

// Antidiffusive velocities on the three lower faces of cell (i,j,k), from the current solution psi
// and the previous pass's velocities c1..c3.
struct FaceVelocity {
  double x, y, z;
};
TDC_HD FaceVelocity antidiffusive_faces(const Cells& s, const Options& o, const double* psi,
                                        const double* c1, const double* c2, const double* c3,
                                        const double* g, int i, int j, int k) {
  const bool iga = o.iga;
  const double eps = o.eps;
  const int kb = s.below(k), ka = s.above(k);
  auto P = [&](int ii, int jj, int kk) { return mag(psi[s.at(ii, jj, kk)], iga); };
  FaceVelocity v;
  {  // x face between i-1 and i
    const double u = c1[s.at(i, j, k)];
    const double gf = 0.5 * (g[s.at(i - 1, j, k)] + g[s.at(i, j, k)]);
    const double a = ratio_a(P(i - 1, j, k), P(i, j, k), iga, eps);
    const double by = ratio_b(P(i, j + 1, k), P(i - 1, j + 1, k), P(i, j - 1, k), P(i - 1, j - 1, k), iga, eps);
    const double bz = ratio_b(P(i, j, ka), P(i - 1, j, ka), P(i, j, kb), P(i - 1, j, kb), iga, eps);
    const double vb = 0.25 * ((c2[s.at(i - 1, j, k)] + c2[s.at(i - 1, j + 1, k)]) +
                              (c2[s.at(i, j, k)] + c2[s.at(i, j + 1, k)]));
    const double wb = 0.25 * ((s.lower_z(c3, i - 1, j, k) + s.upper_z(c3, i - 1, j, k)) +
                              (s.lower_z(c3, i, j, k) + s.upper_z(c3, i, j, k)));
    v.x = antidiffusive(u, gf, a, vb, by, wb, bz);
  }
  {  // y face between j-1 and j
    const double u = c2[s.at(i, j, k)];
    const double gf = 0.5 * (g[s.at(i, j - 1, k)] + g[s.at(i, j, k)]);
    const double a = ratio_a(P(i, j - 1, k), P(i, j, k), iga, eps);
    const double bx = ratio_b(P(i + 1, j, k), P(i + 1, j - 1, k), P(i - 1, j, k), P(i - 1, j - 1, k), iga, eps);
    const double bz = ratio_b(P(i, j, ka), P(i, j - 1, ka), P(i, j, kb), P(i, j - 1, kb), iga, eps);
    const double ub = 0.25 * ((c1[s.at(i, j - 1, k)] + c1[s.at(i + 1, j - 1, k)]) +
                              (c1[s.at(i, j, k)] + c1[s.at(i + 1, j, k)]));
    const double wb = 0.25 * ((s.lower_z(c3, i, j - 1, k) + s.upper_z(c3, i, j - 1, k)) +
                              (s.lower_z(c3, i, j, k) + s.upper_z(c3, i, j, k)));
    v.y = antidiffusive(u, gf, a, ub, bx, wb, bz);
  }
  if (k == 0 && s.zb == ZBoundary::Rigid) {
    v.z = 0.0;  // no flux through a rigid lid
  } else {  // z face between kb and k
    const double u = c3[s.at(i, j, k)];
    const double gf = 0.5 * (g[s.at(i, j, kb)] + g[s.at(i, j, k)]);
    const double a = ratio_a(P(i, j, kb), P(i, j, k), iga, eps);
    const double bx = ratio_b(P(i + 1, j, k), P(i + 1, j, kb), P(i - 1, j, k), P(i - 1, j, kb), iga, eps);
    const double by = ratio_b(P(i, j + 1, k), P(i, j + 1, kb), P(i, j - 1, k), P(i, j - 1, kb), iga, eps);
    const double ub = 0.25 * ((c1[s.at(i, j, kb)] + c1[s.at(i + 1, j, kb)]) +
                              (c1[s.at(i, j, k)] + c1[s.at(i + 1, j, k)]));
    const double vb = 0.25 * ((c2[s.at(i, j, kb)] + c2[s.at(i, j + 1, kb)]) +
                              (c2[s.at(i, j, k)] + c2[s.at(i, j + 1, k)]));
    v.z = antidiffusive(u, gf, a, ub, bx, vb, by);
  }
  return v;
}

// Non-oscillatory limiter, step 1: how much the antidiffusive fluxes may raise (up) or lower (down)
// cell (i,j,k) without leaving the range of psi0 (start of the step) and psi1 (donor-cell result)
// over the cell and its six face neighbours.
struct Beta {
  double up, down;
};
TDC_HD Beta fct_beta_cell(const Cells& s, const Options& o, const double* psi0, const double* psi1,
                          const double* psi, const double* v1, const double* v2, const double* v3,
                          const double* g, int i, int j, int k) {
  const int kb = s.below(k), ka = s.above(k);
  const std::ptrdiff_t n[7] = {s.at(i, j, k),     s.at(i - 1, j, k), s.at(i + 1, j, k), s.at(i, j - 1, k),
                               s.at(i, j + 1, k), s.at(i, j, kb),    s.at(i, j, ka)};
  double mx = psi0[n[0]], mn = psi0[n[0]];
  for (int q = 0; q < 7; ++q) {
    const double a = psi0[n[q]], b = psi1[n[q]];
    mx = a > mx ? a : mx;
    mx = b > mx ? b : mx;
    mn = a < mn ? a : mn;
    mn = b < mn ? b : mn;
  }
  const bool lin = o.iga;
  const double p = psi[n[0]];
  const double fx0 = face_flux(psi[n[1]], p, v1[n[0]], lin);
  const double fx1 = face_flux(p, psi[n[2]], v1[s.at(i + 1, j, k)], lin);
  const double fy0 = face_flux(psi[n[3]], p, v2[n[0]], lin);
  const double fy1 = face_flux(p, psi[n[4]], v2[s.at(i, j + 1, k)], lin);
  const double fz0 = face_flux(psi[n[5]], p, s.lower_z(v3, i, j, k), lin);
  const double fz1 = face_flux(p, psi[n[6]], s.upper_z(v3, i, j, k), lin);
  const double in = (pos(fx0) - neg(fx1)) + (pos(fy0) - neg(fy1)) + (pos(fz0) - neg(fz1));
  const double out = (pos(fx1) - neg(fx0)) + (pos(fy1) - neg(fy0)) + (pos(fz1) - neg(fz0));
  const double gc = g[n[0]];
  return {(mx - p) * gc / (in + o.eps), (p - mn) * gc / (out + o.eps)};
}

// Non-oscillatory limiter, step 2: scale the velocity on a face between cell "lo" and cell "hi" so
// that neither overshoots: outflow from lo limited by lo's down-factor and inflow to hi by hi's
// up-factor, and the reverse for negative velocities.
TDC_HD double fct_limit_face(double v, double up_lo, double down_lo, double up_hi, double down_hi) {
  return pos(v) * min3(1.0, down_lo, up_hi) + neg(v) * min3(1.0, up_lo, down_hi);
}

}  // namespace mpdata
}  // namespace tdc
