// MPDATA per-cell formulae (Smolarkiewicz 1984; Smolarkiewicz & Margolin 1998; Smolarkiewicz &
// Grabowski 1990 for the non-oscillatory option), written once and called by the staged CPU loops,
// the staged CUDA kernels and the fused CUDA kernel alike. Compiled without FMA contraction on both
// sides, they give bitwise identical results, so a run's answer does not depend on which worker
// executed a task or which kernel variant ran.
//
// Staggering: the Courant-number arrays c1, c2, c3 hold G-weighted (mass-flux) Courant numbers on
// the *lower* faces of each cell: c1(i,j,k) on face i-1/2, c2 on j-1/2, c3 on k-1/2. G is the
// density/Jacobian at cell centres.
//
// Arrays are read through accessors a(i, j, plane) (tile arrays, or the fused kernel's on-chip
// planes); `Vert` says which planes hold the cell's lower and upper neighbours, so the same formula
// serves global arrays indexed by level and ring buffers indexed by pipeline plane.
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

// The vertical situation of one cell.
struct Vert {
  int kb, k0, ka;          // planes (as the accessors index them) of the cell below, the cell, the cell above
  bool lid_below;          // a rigid lid carries no flux through the lower face
  bool lid_above;          // ... or the upper face
};
// For arrays indexed by level: rigid lids clamp the neighbours (zero gradient), periodic wraps.
TDC_HD Vert level_vert(int k, int nz, ZBoundary zb) {
  const bool rigid = zb == ZBoundary::Rigid;
  return {k_below(k, nz, zb), k, k_above(k, nz, zb), rigid && k == 0, rigid && k == nz - 1};
}

// A tile array read by (i, j, level).
struct TileArray {
  const double* p;
  TileLayout L;
  TDC_HD double operator()(int i, int j, int k) const { return p[L.at(i, j, k)]; }
};

TDC_HD double pos(double x) { return x > 0.0 ? x : 0.0; }
TDC_HD double neg(double x) { return x < 0.0 ? x : 0.0; }
TDC_HD double min3(double a, double b, double c) {
  double m = a < b ? a : b;
  return m < c ? m : c;
}
TDC_HD double fabs_(double x) { return x < 0.0 ? -x : x; }

// Vertical face values under the boundary rule.
template <class A>
TDC_HD double lower_z(const Vert& v, const A& c3, int i, int j) {
  return v.lid_below ? 0.0 : c3(i, j, v.k0);
}
template <class A>
TDC_HD double upper_z(const Vert& v, const A& c3, int i, int j) {
  return v.lid_above ? 0.0 : c3(i, j, v.ka);
}

// Donor-cell (upwind) flux through a face with Courant number c between left and right cells; the
// corrective passes of the infinite-gauge option use the linear flux c instead.
TDC_HD double face_flux(double left, double right, double c, bool linear) {
  return linear ? c : pos(c) * left + neg(c) * right;
}

// psi - div(F)/G at cell (i, j) from the six face Courant numbers.
template <class P, class G>
TDC_HD double upwind_from_faces(const Vert& v, const P& psi, const G& g, int i, int j, double cx0, double cx1,
                                double cy0, double cy1, double cz0, double cz1, bool linear) {
  const double p = psi(i, j, v.k0);
  const double fx0 = face_flux(psi(i - 1, j, v.k0), p, cx0, linear);
  const double fx1 = face_flux(p, psi(i + 1, j, v.k0), cx1, linear);
  const double fy0 = face_flux(psi(i, j - 1, v.k0), p, cy0, linear);
  const double fy1 = face_flux(p, psi(i, j + 1, v.k0), cy1, linear);
  const double fz0 = face_flux(psi(i, j, v.kb), p, cz0, linear);
  const double fz1 = face_flux(p, psi(i, j, v.ka), cz1, linear);
  return p - ((fx1 - fx0) + (fy1 - fy0) + (fz1 - fz0)) / g(i, j, v.k0);
}

// One upwind pass at cell (i, j).
template <class P, class C, class G>
TDC_HD double upwind_cell(const Vert& v, const P& psi, const C& c1, const C& c2, const C& c3, const G& g, int i,
                          int j, bool linear) {
  return upwind_from_faces(v, psi, g, i, j, c1(i, j, v.k0), c1(i + 1, j, v.k0), c2(i, j, v.k0), c2(i, j + 1, v.k0),
                           lower_z(v, c3, i, j), upper_z(v, c3, i, j), linear);
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

// Antidiffusive velocities on the lower x, y and z faces of cell (i, j), from the current solution
// psi and the previous pass's velocities c1..c3 (one function per face, so that a kernel can compute
// each only where it is needed).
template <class P, class C, class G>
TDC_HD double antidiffusive_x(const Vert& v, const Options& o, const P& psi, const C& c1, const C& c2, const C& c3,
                              const G& g, int i, int j) {
  const bool iga = o.iga;
  const double eps = o.eps;
  const int kb = v.kb, k = v.k0, ka = v.ka;
  auto M = [&](int ii, int jj, int kk) { return mag(psi(ii, jj, kk), iga); };
  const double u = c1(i, j, k);
  const double gf = 0.5 * (g(i - 1, j, k) + g(i, j, k));
  const double a = ratio_a(M(i - 1, j, k), M(i, j, k), iga, eps);
  const double by = ratio_b(M(i, j + 1, k), M(i - 1, j + 1, k), M(i, j - 1, k), M(i - 1, j - 1, k), iga, eps);
  const double bz = ratio_b(M(i, j, ka), M(i - 1, j, ka), M(i, j, kb), M(i - 1, j, kb), iga, eps);
  const double vb = 0.25 * ((c2(i - 1, j, k) + c2(i - 1, j + 1, k)) + (c2(i, j, k) + c2(i, j + 1, k)));
  const double wb = 0.25 * ((lower_z(v, c3, i - 1, j) + upper_z(v, c3, i - 1, j)) +
                            (lower_z(v, c3, i, j) + upper_z(v, c3, i, j)));
  return antidiffusive(u, gf, a, vb, by, wb, bz);
}
template <class P, class C, class G>
TDC_HD double antidiffusive_y(const Vert& v, const Options& o, const P& psi, const C& c1, const C& c2, const C& c3,
                              const G& g, int i, int j) {
  const bool iga = o.iga;
  const double eps = o.eps;
  const int kb = v.kb, k = v.k0, ka = v.ka;
  auto M = [&](int ii, int jj, int kk) { return mag(psi(ii, jj, kk), iga); };
  const double u = c2(i, j, k);
  const double gf = 0.5 * (g(i, j - 1, k) + g(i, j, k));
  const double a = ratio_a(M(i, j - 1, k), M(i, j, k), iga, eps);
  const double bx = ratio_b(M(i + 1, j, k), M(i + 1, j - 1, k), M(i - 1, j, k), M(i - 1, j - 1, k), iga, eps);
  const double bz = ratio_b(M(i, j, ka), M(i, j - 1, ka), M(i, j, kb), M(i, j - 1, kb), iga, eps);
  const double ub = 0.25 * ((c1(i, j - 1, k) + c1(i + 1, j - 1, k)) + (c1(i, j, k) + c1(i + 1, j, k)));
  const double wb = 0.25 * ((lower_z(v, c3, i, j - 1) + upper_z(v, c3, i, j - 1)) +
                            (lower_z(v, c3, i, j) + upper_z(v, c3, i, j)));
  return antidiffusive(u, gf, a, ub, bx, wb, bz);
}
template <class P, class C, class G>
TDC_HD double antidiffusive_z(const Vert& v, const Options& o, const P& psi, const C& c1, const C& c2, const C& c3,
                              const G& g, int i, int j) {
  if (v.lid_below) return 0.0;  // no flux through a rigid lid
  const bool iga = o.iga;
  const double eps = o.eps;
  const int kb = v.kb, k = v.k0;
  auto M = [&](int ii, int jj, int kk) { return mag(psi(ii, jj, kk), iga); };
  const double u = c3(i, j, k);
  const double gf = 0.5 * (g(i, j, kb) + g(i, j, k));
  const double a = ratio_a(M(i, j, kb), M(i, j, k), iga, eps);
  const double bx = ratio_b(M(i + 1, j, k), M(i + 1, j, kb), M(i - 1, j, k), M(i - 1, j, kb), iga, eps);
  const double by = ratio_b(M(i, j + 1, k), M(i, j + 1, kb), M(i, j - 1, k), M(i, j - 1, kb), iga, eps);
  const double ub = 0.25 * ((c1(i, j, kb) + c1(i + 1, j, kb)) + (c1(i, j, k) + c1(i + 1, j, k)));
  const double vb = 0.25 * ((c2(i, j, kb) + c2(i, j + 1, kb)) + (c2(i, j, k) + c2(i, j + 1, k)));
  return antidiffusive(u, gf, a, ub, bx, vb, by);
}

struct FaceVelocity {
  double x, y, z;
};
template <class P, class C, class G>
TDC_HD FaceVelocity antidiffusive_faces(const Vert& v, const Options& o, const P& psi, const C& c1, const C& c2,
                                        const C& c3, const G& g, int i, int j) {
  return {antidiffusive_x(v, o, psi, c1, c2, c3, g, i, j), antidiffusive_y(v, o, psi, c1, c2, c3, g, i, j),
          antidiffusive_z(v, o, psi, c1, c2, c3, g, i, j)};
}

// Non-oscillatory limiter, step 1: how much the antidiffusive fluxes may raise (up) or lower (down)
// cell (i, j) without leaving the range of psi0 (start of the step) and psi1 (donor-cell result)
// over the cell and its six face neighbours.
struct Beta {
  double up, down;
};
template <class P0, class P, class V, class G>
TDC_HD Beta fct_beta_cell(const Vert& v, const Options& o, const P0& psi0, const P& psi1, const P& psi,
                          const V& v1, const V& v2, const V& v3, const G& g, int i, int j) {
  const int kb = v.kb, k = v.k0, ka = v.ka;
  const int ni[7] = {i, i - 1, i + 1, i, i, i, i};
  const int nj[7] = {j, j, j, j - 1, j + 1, j, j};
  const int nk[7] = {k, k, k, k, k, kb, ka};
  double mx = psi0(i, j, k), mn = mx;
  for (int q = 0; q < 7; ++q) {
    const double a = psi0(ni[q], nj[q], nk[q]), b = psi1(ni[q], nj[q], nk[q]);
    mx = a > mx ? a : mx;
    mx = b > mx ? b : mx;
    mn = a < mn ? a : mn;
    mn = b < mn ? b : mn;
  }
  const bool lin = o.iga;
  const double p = psi(i, j, k);
  const double fx0 = face_flux(psi(i - 1, j, k), p, v1(i, j, k), lin);
  const double fx1 = face_flux(p, psi(i + 1, j, k), v1(i + 1, j, k), lin);
  const double fy0 = face_flux(psi(i, j - 1, k), p, v2(i, j, k), lin);
  const double fy1 = face_flux(p, psi(i, j + 1, k), v2(i, j + 1, k), lin);
  const double fz0 = face_flux(psi(i, j, kb), p, lower_z(v, v3, i, j), lin);
  const double fz1 = face_flux(p, psi(i, j, ka), upper_z(v, v3, i, j), lin);
  const double in = (pos(fx0) - neg(fx1)) + (pos(fy0) - neg(fy1)) + (pos(fz0) - neg(fz1));
  const double out = (pos(fx1) - neg(fx0)) + (pos(fy1) - neg(fy0)) + (pos(fz1) - neg(fz0));
  const double gc = g(i, j, k);
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
