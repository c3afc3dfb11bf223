// The body of the MPDATA march (mpdata_march.hpp), compiled once per instruction set: the including
// file defines TDC_MARCH_NS (the namespace of its variant) and is built with that set's flags.
// No FMA contraction and no reassociation in any variant (-ffp-contract=off, no -ffast-math): the
// vector loops do the formulae's operations in their order, lane by lane, so every variant gives the
// scalar code's bits.
#pragma once
#include "mpdata_march.hpp"

#ifndef TDC_MARCH_NS
#error "define TDC_MARCH_NS before including mpdata_march_impl.hpp"
#endif

namespace tdc {
namespace mpdata {
namespace TDC_MARCH_NS {

// One intermediate array: planes of a W × H region whose (0, 0) sits at column (ox, oy), held by
// level. The levels of the current window rotate through D ring slots; the S lowest and S highest
// levels (those a periodic or rigid wrap reads out of order) have slots of their own, so that no
// level is computed twice.
struct PlaneStore {
  double* base;
  int D, S, nz;
  std::ptrdiff_t plane_size, shift;  // shift: offset of column (0, 0) from the region's first point
  int row;
  double* plane(int k) const {
    int slot;
    if (k < S)
      slot = D + k;
    else if (k >= nz - S)
      slot = D + S + (k - (nz - S));
    else
      slot = k % D;
    return base + plane_size * slot;
  }
  double* origin(int k) const { return plane(k) - shift; }
  Planes around(int k, ZBoundary zb) const {
    return {origin(k_below(k, nz, zb)), origin(k), origin(k_above(k, nz, zb)), row};
  }
  static constexpr int slots(int D, int S) { return D + 2 * S; }
};

// G on the planes around a level: the tile array, or 1 (not read).
template <class Den>
struct DensityPlanes;
template <>
struct DensityPlanes<Planes> {
  static Planes at(const double* g, const TileLayout& L, int k, ZBoundary zb) { return level_planes(g, L, k, zb); }
};
template <>
struct DensityPlanes<UnitDensity> {
  static UnitDensity at(const double*, const TileLayout&, int, ZBoundary) { return {}; }
};

// Calls f with two flags as compile-time constants (std::true_type / std::false_type), so that the
// selects on them fold away in the loops (GCC vectorises no select on a scalar condition).
template <class F>
void with_flags(bool a, bool b, F&& f) {
  using T = std::true_type;
  using N = std::false_type;
  if (a)
    b ? f(T{}, T{}) : f(T{}, N{});
  else
    b ? f(N{}, T{}) : f(N{}, N{});
}
// The lids (below, above) as such constants.
template <class F>
void with_lids(Lids l, F&& f) {
  with_flags(l.below, l.above, f);
}

// Stage kernels over one plane: `out` points at column (0, 0) of a plane with row stride `row`.
// Every loop-invariant value is a by-value parameter, the written rows are restrict and the loops
// carry no dependence (ivdep), so GCC vectorises the x loops without alias checks.
template <bool LINEAR, bool LB, bool LA, class Den>
void upwind_plane(Box b, Planes P, Planes C1, Planes C2, Planes C3, Den G, double* out, int row) {
  const Lids l{LB, LA};
  for (int j = b.j0; j < b.j1; ++j) {
    double* __restrict o = out + std::ptrdiff_t(row) * j;
#pragma GCC ivdep
    for (int i = b.i0; i < b.i1; ++i) o[i] = upwind_cell(l, P, C1, C2, C3, G, i, j, LINEAR);
  }
}

template <bool IGA, bool LB, bool LA, class Den>
void antidiffusive_plane(Box bx, Box by, Box bz, double eps, Planes P, Planes C1, Planes C2, Planes C3, Den G,
                         double* v1, double* v2, double* v3, int row) {
  const Lids l{LB, LA};
  Options o;
  o.iga = IGA;
  o.eps = eps;
  for (int j = bx.j0; j < bx.j1; ++j) {
    double* __restrict w = v1 + std::ptrdiff_t(row) * j;
#pragma GCC ivdep
    for (int i = bx.i0; i < bx.i1; ++i) w[i] = antidiffusive_x(l, o, P, C1, C2, C3, G, i, j);
  }
  for (int j = by.j0; j < by.j1; ++j) {
    double* __restrict w = v2 + std::ptrdiff_t(row) * j;
#pragma GCC ivdep
    for (int i = by.i0; i < by.i1; ++i) w[i] = antidiffusive_y(l, o, P, C1, C2, C3, G, i, j);
  }
  for (int j = bz.j0; j < bz.j1; ++j) {
    double* __restrict w = v3 + std::ptrdiff_t(row) * j;
#pragma GCC ivdep
    for (int i = bz.i0; i < bz.i1; ++i) w[i] = antidiffusive_z(l, o, P, C1, C2, C3, G, i, j);
  }
}

template <bool IGA, bool LB, bool LA, class Den>
void beta_plane(Box b, double eps, Planes P0, Planes P1, Planes V1, Planes V2, Planes V3, Den G, double* up,
                double* down, int row) {
  const Lids l{LB, LA};
  Options o;
  o.iga = IGA;
  o.eps = eps;
  for (int j = b.j0; j < b.j1; ++j) {
    double* __restrict u = up + std::ptrdiff_t(row) * j;
    double* __restrict d = down + std::ptrdiff_t(row) * j;
#pragma GCC ivdep
    for (int i = b.i0; i < b.i1; ++i) {
      const Beta f = fct_beta_cell(l, o, P0, P1, P1, V1, V2, V3, G, i, j);
      u[i] = f.up;
      d[i] = f.down;
    }
  }
}

template <bool IGA, bool LB, bool LA, class Den>
void limited_plane(Box b, Planes P1, Planes V1, Planes V2, Planes V3, Planes U, Planes D, Den G, double* out, int row) {
  const Lids l{LB, LA};
  for (int j = b.j0; j < b.j1; ++j) {
    double* __restrict o = out + std::ptrdiff_t(row) * j;
#pragma GCC ivdep
    for (int i = b.i0; i < b.i1; ++i) o[i] = limited_upwind_cell(l, P1, V1, V2, V3, U, D, G, i, j, IGA);
  }
}

template <bool FCT, bool IGA, class Den>
void march(const TileLayout& L, ZBoundary zb, double eps, Box R, const double* psi0, const double* c1, const double* c2,
           const double* c3, const double* g, double* out, const MarchWork& work) {
  constexpr int R1 = FCT ? 2 : 1;   // psi1 reach around the output (the layout is FCT's either way)
  constexpr int EV = FCT ? 1 : 0;   // velocities on the lower faces of the output grown by EV (+1 above)
  constexpr int LAG = FCT ? 3 : 2;  // output level = psi1 level - LAG
  constexpr int FIRST_V = FCT ? -1 : 0;
  using M = MarchPlan;
  const int nz = L.nz;
  const int row = M::row(R);
  const std::ptrdiff_t plane = M::plane(R);
  const std::ptrdiff_t shift = (R.i0 - M::R1) + std::ptrdiff_t(row) * (R.j0 - M::R1);
  constexpr int S = M::S;
  double* next = work.planes;
  auto store = [&](int D, int n) {
    PlaneStore p{next, D, S, nz, plane, shift, row};
    next += plane * n;
    return p;
  };
  const int n1 = PlaneStore::slots(M::D1, S), nv = PlaneStore::slots(M::DV, S), nb = PlaneStore::slots(M::DB, S);
  const PlaneStore psi1 = store(M::D1, n1), v1 = store(M::DV, nv), v2 = store(M::DV, nv), v3 = store(M::DV, nv);
  const PlaneStore up = FCT ? store(M::DB, nb) : psi1, down = FCT ? store(M::DB, nb) : psi1;
  // Which levels of psi1, the velocities and the limiter factors are computed.
  char* done1 = work.done;
  for (int n = 0; n < 3 * nz; ++n) done1[n] = 0;
  char* donev = done1 + nz;
  char* doneb = donev + nz;

  // Pipeline plane v stands for level phys(v). Periodic: the planes below 0 are the top levels (their
  // neighbours wrap, so a plane's inputs are the planes next to it in the pipeline as well) and those
  // from nz up the lowest, computed already. Rigid lids clamp the neighbours to the level itself, so
  // the planes outside [0, nz) are skipped (phys(v) = -1): each level is computed in its own turn.
  const bool periodic = zb == ZBoundary::Periodic;
  auto phys = [&](int v) {
    if (periodic) return ((v % nz) + nz) % nz;
    return v < 0 || v >= nz ? -1 : v;
  };
  const Box b1 = R.grown(R1);
  const Box bx{R.i0 - EV, R.i1 + EV + 1, R.j0 - EV, R.j1 + EV};
  const Box by{R.i0 - EV, R.i1 + EV, R.j0 - EV, R.j1 + EV + 1};
  const Box bz = R.grown(EV);
  const Box bb = R.grown(1);
  using DP = DensityPlanes<Den>;

  for (int m = 1 - LAG; m <= nz - 1 + LAG; ++m) {
    // A: donor-cell solution on level phys(m).
    if (const int k = phys(m); k >= 0 && !done1[k]) {
      done1[k] = 1;
      with_lids(level_lids(k, nz, zb), [&](auto lb, auto la) {
        upwind_plane<false, decltype(lb)::value, decltype(la)::value>(
            b1, level_planes(psi0, L, k, zb), level_planes(c1, L, k, zb), level_planes(c2, L, k, zb),
            level_planes(c3, L, k, zb), DP::at(g, L, k, zb), psi1.origin(k), row);
      });
    }
    // B: antidiffusive velocities on the lower faces of level phys(m - 1).
    if (const int k = phys(m - 1); k >= 0 && m - 1 >= FIRST_V && !donev[k]) {
      donev[k] = 1;
      with_lids(level_lids(k, nz, zb), [&](auto lb, auto la) {
        antidiffusive_plane<IGA, decltype(lb)::value, decltype(la)::value>(
            bx, by, bz, eps, psi1.around(k, zb), level_planes(c1, L, k, zb), level_planes(c2, L, k, zb),
            level_planes(c3, L, k, zb), DP::at(g, L, k, zb), v1.origin(k), v2.origin(k), v3.origin(k), row);
      });
    }
    // C: limiter factors on level phys(m - 2).
    if (const int k = phys(m - 2); FCT && k >= 0 && m - 2 >= -1 && !doneb[k]) {
      doneb[k] = 1;
      with_lids(level_lids(k, nz, zb), [&](auto lb, auto la) {
        beta_plane<IGA, decltype(lb)::value, decltype(la)::value>(
            bb, eps, level_planes(psi0, L, k, zb), psi1.around(k, zb), v1.around(k, zb), v2.around(k, zb),
            v3.around(k, zb), DP::at(g, L, k, zb), up.origin(k), down.origin(k), row);
      });
    }
    // D: the corrective pass on output level m - LAG.
    if (const int k = m - LAG; k >= 0 && k < nz) {
      double* o = out + L.at(0, 0, k);
      with_lids(level_lids(k, nz, zb), [&](auto lb, auto la) {
        constexpr bool B = decltype(lb)::value, A = decltype(la)::value;
        if constexpr (FCT)
          limited_plane<IGA, B, A>(R, psi1.around(k, zb), v1.around(k, zb), v2.around(k, zb), v3.around(k, zb),
                                   up.around(k, zb), down.around(k, zb), DP::at(g, L, k, zb), o, L.sx());
        else
          upwind_plane<IGA, B, A>(R, psi1.around(k, zb), v1.around(k, zb), v2.around(k, zb), v3.around(k, zb),
                                  DP::at(g, L, k, zb), o, L.sx());
      });
    }
  }
}

void step2_march(const Cells& s, const Options& o, Box box, const double* psi0, const double* c1, const double* c2,
                 const double* c3, const double* g, double* out, const MarchWork& work) {
  auto go = [&](auto fct, auto iga) {
    constexpr bool F = decltype(fct)::value, I = decltype(iga)::value;
    if (g)
      march<F, I, Planes>(s.L, s.zb, o.eps, box, psi0, c1, c2, c3, g, out, work);
    else
      march<F, I, UnitDensity>(s.L, s.zb, o.eps, box, psi0, c1, c2, c3, g, out, work);
  };
  with_flags(o.fct, o.iga, go);
}

}  // namespace TDC_MARCH_NS
}  // namespace mpdata
}  // namespace tdc
