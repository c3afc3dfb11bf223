// advector: the face Courant numbers of MPDATA (c1 on the lower x face i-1/2, c2 on j-1/2, c3 on
// k-1/2; codelets/mpdata/mpdata_formulae.hpp) from the cell-centred velocity extrapolated to the half
// step, v* = 1.5 v^n - 0.5 v^(n-1) (EULAG's NFT), averaged onto the faces and scaled by dt/dx.
// Computed on the interior cells and on `ring` columns of the ghost ring but their outermost lower
// layer (advector_box: a face there would need v one cell beyond), from v^n's and v^(n-1)'s ghost
// rings: the values a halo exchange would bring, bit for bit, so c needs no exchange of its own.
// With ring = MPDATA's halo_needed(), MPDATA reads no face beyond that box. Periodic columns wrap; under a rigid lid the bottom face carries nothing (w is odd
// about the lid, its face average is zero).
#pragma once
#include "../common/tile_layout.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

struct AdvectorArgs {
  TileLayout L;
  double cx = 0, cy = 0, cz = 0;  // dt/dx, dt/dy, dt/dz
  ZBoundary zb = ZBoundary::Periodic;
  int ring = 0;  // the ghost ring's width c is needed on (v's rings must be current that far)
};

struct VelocityPointers {
  const double *u, *v, *w;              // v^n
  const double *u_old, *v_old, *w_old;  // v^(n-1)
};

TDC_HD double half_step(const double* now, const double* old, std::ptrdiff_t o) { return 1.5 * now[o] - 0.5 * old[o]; }

// The cells whose faces the advector computes: the interior and `ring` columns around it, less the
// ring's outermost layer on the lower side of x and y.
TDC_HD Box advector_box(const TileLayout& L, int ring) {
  const int lower = ring > 0 ? 1 - ring : 0;
  return Box{lower, L.nx + ring, lower, L.ny + ring};
}

TDC_HD void advector_cell(const AdvectorArgs& a, const VelocityPointers& p, double* c1, double* c2, double* c3, int i,
                          int j, int k) {
  const TileLayout& L = a.L;
  const std::ptrdiff_t o = L.at(i, j, k), km = L.at(i, j, k_below(k, L.nz, a.zb));
  const double lid = a.zb == ZBoundary::Rigid && k == 0 ? 0.0 : 1.0;
  c1[o] = a.cx * 0.5 * (half_step(p.u, p.u_old, o - 1) + half_step(p.u, p.u_old, o));
  c2[o] = a.cy * 0.5 * (half_step(p.v, p.v_old, o - L.sx()) + half_step(p.v, p.v_old, o));
  c3[o] = lid * (a.cz * 0.5 * (half_step(p.w, p.w_old, km) + half_step(p.w, p.w_old, o)));
}

void advector_cpu(const AdvectorArgs& a, const VelocityPointers& p, double* c1, double* c2, double* c3);
#if defined(TASKDYCORE_HAVE_CUDA)
void advector_cuda(const AdvectorArgs& a, const VelocityPointers& p, double* c1, double* c2, double* c3,
                   cudaStream_t stream);
#endif

}  // namespace tdc
