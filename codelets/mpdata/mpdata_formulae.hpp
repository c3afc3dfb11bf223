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
// Arrays are read as `Planes`: the three horizontal planes below, at and above the cell's level
// (tile arrays in memory, or the fused kernel's on-chip rings), each a pointer to column (0, 0) and
// a row stride, so that every read is a fixed offset the compiler can hoist and vectorise.
#pragma once
#include <type_traits>

#include "../common/tile_layout.hpp"

namespace tdc {
namespace mpdata {

struct Options {
  int iord = 2;      // number of passes: 1 = donor cell, 2 = one antidiffusive correction, ...
  bool fct = true;   // non-oscillatory (flux-corrected) option
  bool iga = false;  // infinite-gauge (variable-sign) option
  ZBoundary zb = ZBoundary::Periodic;
  double eps = 1e-15;         // keeps the ratios finite where psi vanishes
  bool unit_density = false;  // G = 1 everywhere (Cartesian Boussinesq): G is neither read nor divided by
  // Which kernels compute a step, with bitwise the same results: the staged ones, or (iord = 2) the
  // fused 2.5D block (mpdata_fused.hpp) of 32 x fused_block_y output columns on the GPU (8 or 4).
  bool fused = false;
  int fused_block_y = 8;
};

// The three planes of one array around a level: below, self (the level) and above.
struct Planes {
  const double *b, *s, *a;
  int row;
  TDC_HD double below(int i, int j) const { return (b + std::ptrdiff_t(row) * j)[i]; }
  TDC_HD double self(int i, int j) const { return (s + std::ptrdiff_t(row) * j)[i]; }
  TDC_HD double above(int i, int j) const { return (a + std::ptrdiff_t(row) * j)[i]; }
};
// G where it is 1 everywhere: the kernels instantiated with it read no G and, since x / 1 and x * 1
// are x, give the same bits as with an array of ones (tested), with 9 fewer divisions per cell in the
// antidiffusive velocities and one fewer per upwind pass (11 per iord-2 step; counted in the PTX).
struct UnitDensity {
  TDC_HD double below(int, int) const { return 1.0; }
  TDC_HD double self(int, int) const { return 1.0; }
  TDC_HD double above(int, int) const { return 1.0; }
};
// Every division of the formulae goes through a `Divide`: ExactDivide is a / b; the CUDA kernels
// pass a branch-free divider with the same correctly rounded result (codelets/common/
// branch_free_divide.cuh). Division by a UnitDensity is skipped at compile time (x / 1 is x).
struct ExactDivide {
  TDC_HD double operator()(double a, double b) const { return a / b; }
};
template <class Density, class Divide>
TDC_HD double over_density(double x, double g, const Divide& div) {
  if constexpr (std::is_same<Density, UnitDensity>::value)
    return x;
  else
    return div(x, g);
}
// Rigid lids carry no flux through the lower face of the bottom level or the upper face of the top.
struct Lids {
  bool below, above;
};
TDC_HD Lids level_lids(int k, int nz, ZBoundary zb) {
  const bool rigid = zb == ZBoundary::Rigid;
  return {rigid && k == 0, rigid && k == nz - 1};
}
// The planes of a tile array around level k: rigid lids clamp the neighbours (zero gradient),
// periodic wraps.
TDC_HD Planes level_planes(const double* p, const TileLayout& L, int k, ZBoundary zb) {
  const double* origin = p + L.at(0, 0, 0);
  return {origin + L.plane() * k_below(k, L.nz, zb), origin + L.plane() * k, origin + L.plane() * k_above(k, L.nz, zb),
          L.sx()};
}

TDC_HD double pos(double x) { return x > 0.0 ? x : 0.0; }
TDC_HD double neg(double x) { return x < 0.0 ? x : 0.0; }
TDC_HD double min3(double a, double b, double c) {
  double m = a < b ? a : b;
  return m < c ? m : c;
}
TDC_HD double fabs_(double x) { return x < 0.0 ? -x : x; }

// Vertical face values under the boundary rule.
// (The planes are loaded even under a lid, where they are valid clamped planes, so that the choice
// is a select rather than a branch and CPU loops vectorise.)
TDC_HD double lower_z(const Lids& l, const Planes& c3, int i, int j) {
  const double c = c3.self(i, j);
  return l.below ? 0.0 : c;
}
TDC_HD double upper_z(const Lids& l, const Planes& c3, int i, int j) {
  const double c = c3.above(i, j);
  return l.above ? 0.0 : c;
}

// Donor-cell (upwind) flux through a face with Courant number c between left and right cells; the
// corrective passes of the infinite-gauge option use the linear flux c instead.
TDC_HD double face_flux(double left, double right, double c, bool linear) {
  return linear ? c : pos(c) * left + neg(c) * right;
}

// psi - div(F)/G at cell (i, j) from the six face Courant numbers.
template <class Density, class Divide = ExactDivide>
TDC_HD double upwind_from_faces(const Planes& psi, const Density& g, int i, int j, double cx0, double cx1, double cy0,
                                double cy1, double cz0, double cz1, bool linear, const Divide& div = Divide{}) {
  const double p = psi.self(i, j);
  const double fx0 = face_flux(psi.self(i - 1, j), p, cx0, linear);
  const double fx1 = face_flux(p, psi.self(i + 1, j), cx1, linear);
  const double fy0 = face_flux(psi.self(i, j - 1), p, cy0, linear);
  const double fy1 = face_flux(p, psi.self(i, j + 1), cy1, linear);
  const double fz0 = face_flux(psi.below(i, j), p, cz0, linear);
  const double fz1 = face_flux(p, psi.above(i, j), cz1, linear);
  return p - over_density<Density>((fx1 - fx0) + (fy1 - fy0) + (fz1 - fz0), g.self(i, j), div);
}

// One upwind pass at cell (i, j).
template <class Density, class Divide = ExactDivide>
TDC_HD double upwind_cell(const Lids& l, const Planes& psi, const Planes& c1, const Planes& c2, const Planes& c3,
                          const Density& g, int i, int j, bool linear, const Divide& div = Divide{}) {
  return upwind_from_faces(psi, g, i, j, c1.self(i, j), c1.self(i + 1, j), c2.self(i, j), c2.self(i, j + 1),
                           lower_z(l, c3, i, j), upper_z(l, c3, i, j), linear, div);
}

// The "A" and "B" ratios: (normalised) first derivatives along and across a face. The plain scheme
// uses |psi| (so sign-changing fields stay well defined); the infinite gauge uses psi and constant
// denominators (its limit psi -> psi + c, c -> infinity).
TDC_HD double mag(double x, bool iga) { return iga ? x : fabs_(x); }
template <class Divide>
TDC_HD double ratio_a(double lo, double hi, bool iga, double eps, const Divide& div) {
  return iga ? (hi - lo) / 2.0 : div(hi - lo, hi + lo + eps);
}
template <class Divide>
TDC_HD double ratio_b(double hi1, double hi2, double lo1, double lo2, bool iga, double eps, const Divide& div) {
  const double num = (hi1 + hi2) - (lo1 + lo2);
  return iga ? 0.5 * num / 4.0 : div(0.5 * num, (hi1 + hi2) + (lo1 + lo2) + eps);
}

// Antidiffusive pseudo-velocity on a face: (|U| - U^2/G) A - sum over the other directions of U V B / G.
template <class Density, class Divide>
TDC_HD double antidiffusive(double u, double g_face, double a, double v_bar, double b_v, double w_bar, double b_w,
                            const Divide& div) {
  return (fabs_(u) - over_density<Density>(u * u, g_face, div)) * a -
         over_density<Density>(u * v_bar * b_v, g_face, div) - over_density<Density>(u * w_bar * b_w, g_face, div);
}

// Antidiffusive velocities on the lower x, y and z faces of cell (i, j), from the current solution
// psi and the previous pass's velocities c1..c3 (one function per face, so that a kernel can compute
// each only where it is needed).
template <class Density, class Divide = ExactDivide>
TDC_HD double antidiffusive_x(const Lids& l, const Options& o, const Planes& psi, const Planes& c1, const Planes& c2,
                              const Planes& c3, const Density& g, int i, int j, const Divide& div = Divide{}) {
  const bool iga = o.iga;
  const double eps = o.eps;
  auto Mb = [&](int ii, int jj) { return mag(psi.below(ii, jj), iga); };
  auto Ms = [&](int ii, int jj) { return mag(psi.self(ii, jj), iga); };
  auto Ma = [&](int ii, int jj) { return mag(psi.above(ii, jj), iga); };
  const double u = c1.self(i, j);
  const double gf = 0.5 * (g.self(i - 1, j) + g.self(i, j));
  const double a = ratio_a(Ms(i - 1, j), Ms(i, j), iga, eps, div);
  const double by = ratio_b(Ms(i, j + 1), Ms(i - 1, j + 1), Ms(i, j - 1), Ms(i - 1, j - 1), iga, eps, div);
  const double bz = ratio_b(Ma(i, j), Ma(i - 1, j), Mb(i, j), Mb(i - 1, j), iga, eps, div);
  const double vb = 0.25 * ((c2.self(i - 1, j) + c2.self(i - 1, j + 1)) + (c2.self(i, j) + c2.self(i, j + 1)));
  const double wb =
      0.25 * ((lower_z(l, c3, i - 1, j) + upper_z(l, c3, i - 1, j)) + (lower_z(l, c3, i, j) + upper_z(l, c3, i, j)));
  return antidiffusive<Density>(u, gf, a, vb, by, wb, bz, div);
}
template <class Density, class Divide = ExactDivide>
TDC_HD double antidiffusive_y(const Lids& l, const Options& o, const Planes& psi, const Planes& c1, const Planes& c2,
                              const Planes& c3, const Density& g, int i, int j, const Divide& div = Divide{}) {
  const bool iga = o.iga;
  const double eps = o.eps;
  auto Mb = [&](int ii, int jj) { return mag(psi.below(ii, jj), iga); };
  auto Ms = [&](int ii, int jj) { return mag(psi.self(ii, jj), iga); };
  auto Ma = [&](int ii, int jj) { return mag(psi.above(ii, jj), iga); };
  const double u = c2.self(i, j);
  const double gf = 0.5 * (g.self(i, j - 1) + g.self(i, j));
  const double a = ratio_a(Ms(i, j - 1), Ms(i, j), iga, eps, div);
  const double bx = ratio_b(Ms(i + 1, j), Ms(i + 1, j - 1), Ms(i - 1, j), Ms(i - 1, j - 1), iga, eps, div);
  const double bz = ratio_b(Ma(i, j), Ma(i, j - 1), Mb(i, j), Mb(i, j - 1), iga, eps, div);
  const double ub = 0.25 * ((c1.self(i, j - 1) + c1.self(i + 1, j - 1)) + (c1.self(i, j) + c1.self(i + 1, j)));
  const double wb =
      0.25 * ((lower_z(l, c3, i, j - 1) + upper_z(l, c3, i, j - 1)) + (lower_z(l, c3, i, j) + upper_z(l, c3, i, j)));
  return antidiffusive<Density>(u, gf, a, ub, bx, wb, bz, div);
}
template <class Density, class Divide = ExactDivide>
TDC_HD double antidiffusive_z(const Lids& l, const Options& o, const Planes& psi, const Planes& c1, const Planes& c2,
                              const Planes& c3, const Density& g, int i, int j, const Divide& div = Divide{}) {
  const bool iga = o.iga;
  const double eps = o.eps;
  auto Mb = [&](int ii, int jj) { return mag(psi.below(ii, jj), iga); };
  auto Ms = [&](int ii, int jj) { return mag(psi.self(ii, jj), iga); };
  const double u = c3.self(i, j);
  const double gf = 0.5 * (g.below(i, j) + g.self(i, j));
  const double a = ratio_a(Mb(i, j), Ms(i, j), iga, eps, div);
  const double bx = ratio_b(Ms(i + 1, j), Mb(i + 1, j), Ms(i - 1, j), Mb(i - 1, j), iga, eps, div);
  const double by = ratio_b(Ms(i, j + 1), Mb(i, j + 1), Ms(i, j - 1), Mb(i, j - 1), iga, eps, div);
  const double ub = 0.25 * ((c1.below(i, j) + c1.below(i + 1, j)) + (c1.self(i, j) + c1.self(i + 1, j)));
  const double vb = 0.25 * ((c2.below(i, j) + c2.below(i, j + 1)) + (c2.self(i, j) + c2.self(i, j + 1)));
  const double w = antidiffusive<Density>(u, gf, a, ub, bx, vb, by, div);
  return l.below ? 0.0 : w;  // no flux through a rigid lid
}

struct FaceVelocity {
  double x, y, z;
};
template <class Density, class Divide = ExactDivide>
TDC_HD FaceVelocity antidiffusive_faces(const Lids& l, const Options& o, const Planes& psi, const Planes& c1,
                                        const Planes& c2, const Planes& c3, const Density& g, int i, int j,
                                        const Divide& div = Divide{}) {
  return {antidiffusive_x(l, o, psi, c1, c2, c3, g, i, j, div), antidiffusive_y(l, o, psi, c1, c2, c3, g, i, j, div),
          antidiffusive_z(l, o, psi, c1, c2, c3, g, i, j, div)};
}

// Non-oscillatory limiter, step 1: how much the antidiffusive fluxes may raise (up) or lower (down)
// cell (i, j) without leaving the range of psi0 (start of the step) and psi1 (donor-cell result)
// over the cell and its six face neighbours.
struct Beta {
  double up, down;
};
template <class Density, class Divide = ExactDivide>
TDC_HD Beta fct_beta_cell(const Lids& l, const Options& o, const Planes& psi0, const Planes& psi1, const Planes& psi,
                          const Planes& v1, const Planes& v2, const Planes& v3, const Density& g, int i, int j,
                          const Divide& div = Divide{}) {
  // The cell and its six face neighbours, in a fixed order.
  const double n0[7] = {psi0.self(i, j),     psi0.self(i - 1, j), psi0.self(i + 1, j), psi0.self(i, j - 1),
                        psi0.self(i, j + 1), psi0.below(i, j),    psi0.above(i, j)};
  const double n1[7] = {psi1.self(i, j),     psi1.self(i - 1, j), psi1.self(i + 1, j), psi1.self(i, j - 1),
                        psi1.self(i, j + 1), psi1.below(i, j),    psi1.above(i, j)};
  double mx = n0[0], mn = n0[0];
  for (int q = 0; q < 7; ++q) {
    const double a = n0[q], b = n1[q];
    mx = a > mx ? a : mx;
    mx = b > mx ? b : mx;
    mn = a < mn ? a : mn;
    mn = b < mn ? b : mn;
  }
  const bool lin = o.iga;
  const double p = psi.self(i, j);
  const double fx0 = face_flux(psi.self(i - 1, j), p, v1.self(i, j), lin);
  const double fx1 = face_flux(p, psi.self(i + 1, j), v1.self(i + 1, j), lin);
  const double fy0 = face_flux(psi.self(i, j - 1), p, v2.self(i, j), lin);
  const double fy1 = face_flux(p, psi.self(i, j + 1), v2.self(i, j + 1), lin);
  const double fz0 = face_flux(psi.below(i, j), p, lower_z(l, v3, i, j), lin);
  const double fz1 = face_flux(p, psi.above(i, j), upper_z(l, v3, i, j), lin);
  const double in = (pos(fx0) - neg(fx1)) + (pos(fy0) - neg(fy1)) + (pos(fz0) - neg(fz1));
  const double out = (pos(fx1) - neg(fx0)) + (pos(fy1) - neg(fy0)) + (pos(fz1) - neg(fz0));
  const double gc = g.self(i, j);
  return {div((mx - p) * gc, in + o.eps), div((p - mn) * gc, out + o.eps)};
}

// Non-oscillatory limiter, step 2: scale the velocity on a face between cell "lo" and cell "hi" so
// that neither overshoots: outflow from lo limited by lo's down-factor and inflow to hi by hi's
// up-factor, and the reverse for negative velocities.
TDC_HD double fct_limit_face(double v, double up_lo, double down_lo, double up_hi, double down_hi) {
  return pos(v) * min3(1.0, down_lo, up_hi) + neg(v) * min3(1.0, up_lo, down_hi);
}

// The final corrective pass with the FCT limiter applied on the fly: each of the cell's six face
// velocities is limited with the factors of the two cells it joins (as fct_limit_face would have
// stored it) and the result applied upwind; no limited velocity is written to memory.
template <class Density, class Divide = ExactDivide>
TDC_HD double limited_upwind_cell(const Lids& l, const Planes& psi, const Planes& v1, const Planes& v2,
                                  const Planes& v3, const Planes& up, const Planes& dn, const Density& g, int i, int j,
                                  bool linear, const Divide& div = Divide{}) {
  const double u = up.self(i, j), d = dn.self(i, j);
  const double cx0 = fct_limit_face(v1.self(i, j), up.self(i - 1, j), dn.self(i - 1, j), u, d);
  const double cx1 = fct_limit_face(v1.self(i + 1, j), u, d, up.self(i + 1, j), dn.self(i + 1, j));
  const double cy0 = fct_limit_face(v2.self(i, j), up.self(i, j - 1), dn.self(i, j - 1), u, d);
  const double cy1 = fct_limit_face(v2.self(i, j + 1), u, d, up.self(i, j + 1), dn.self(i, j + 1));
  const double cz0 = fct_limit_face(lower_z(l, v3, i, j), up.below(i, j), dn.below(i, j), u, d);
  const double cz1 = fct_limit_face(upper_z(l, v3, i, j), u, d, up.above(i, j), dn.above(i, j));
  return upwind_from_faces(psi, g, i, j, cx0, cx1, cy0, cy1, l.below ? 0.0 : cz0, l.above ? 0.0 : cz1, linear, div);
}

}  // namespace mpdata
}  // namespace tdc
