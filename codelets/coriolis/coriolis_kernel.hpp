// coriolis: the f-plane Coriolis force with a background geostrophic wind (u_g, v_g),
//   du/dt = f (v - v_g),  dv/dt = -f (u - u_g),
// added to the forced velocity over a whole step at the half step, extrapolated from v^n and v^(n-1)
// as the advector extrapolates the advecting velocity: v* = 1.5 v^n - 0.5 v^(n-1). Second order;
// for an inertial oscillation the amplitude grows by (f dt)^4 / 4 per step (6e-12 at f dt = 0.005).
#pragma once
#include "../common/tile_layout.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

struct CoriolisArgs {
  TileLayout L;
  double fdt = 0;         // f dt
  double ug = 0, vg = 0;  // geostrophic wind, m/s
  int ring = 0;  // ghost columns computed too (ring_box)
};

// now: u^n, v^n; old: u^(n-1), v^(n-1); u, v: the forced velocity (in place).
TDC_HD void coriolis_cell(const CoriolisArgs& a, const double* un, const double* vn, const double* uo, const double* vo,
                          double* u, double* v, int i, int j, int k) {
  const std::ptrdiff_t o = a.L.at(i, j, k);
  const double us = 1.5 * un[o] - 0.5 * uo[o], vs = 1.5 * vn[o] - 0.5 * vo[o];
  u[o] = u[o] + a.fdt * (vs - a.vg);
  v[o] = v[o] - a.fdt * (us - a.ug);
}

void coriolis_cpu(const CoriolisArgs& a, const double* un, const double* vn, const double* uo, const double* vo,
                  double* u, double* v);
#if defined(TASKDYCORE_HAVE_CUDA)
void coriolis_cuda(const CoriolisArgs& a, const double* un, const double* vn, const double* uo, const double* vo,
                   double* u, double* v, cudaStream_t s);
#endif

}  // namespace tdc
