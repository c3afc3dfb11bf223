// pressure_gradient: v <- v - s G(p) with the centred (collocated) gradient, EULAG's prforc and the
// velocity correction of the NFT step: Gx p = (p_i+1 - p_i-1) / (2 dx), likewise in y and z (periodic
// columns). divergence: f = s D(v) with the centred divergence. D(G p) is laplc's L p exactly, so a
// velocity corrected with the solution of L p = D(v) / s' has no centred divergence left.
// Vertical boundaries: periodic columns wrap; rigid free-slip lids mirror the column about the lid,
// p, u and v even (the cell beyond the lid is the cell itself) and w odd (minus the cell itself), so
// that G p is odd wherever p is even and D(G p) stays laplc with mirrored couplings
// (src/collocated_laplacian.hpp).
#pragma once
#include "../common/tile_layout.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

struct CentredArgs {
  TileLayout L;
  double gx = 0, gy = 0, gz = 0;  // s / (2 dx), s / (2 dy), s / (2 dz)
  ZBoundary zb = ZBoundary::Periodic;
  int ring = 0;  // the gradients: ghost columns computed too (ring_box); divergences stay interior
};

// The value of an odd field (w) one level above / below k: under a lid, minus the cell itself.
TDC_HD double odd_above(const CentredArgs& a, const double* w, int i, int j, int k) {
  const double x = w[a.L.at(i, j, k_above(k, a.L.nz, a.zb))];
  return a.zb == ZBoundary::Rigid && k + 1 == a.L.nz ? -x : x;
}
TDC_HD double odd_below(const CentredArgs& a, const double* w, int i, int j, int k) {
  const double x = w[a.L.at(i, j, k_below(k, a.L.nz, a.zb))];
  return a.zb == ZBoundary::Rigid && k == 0 ? -x : x;
}

// (u, v, w) <- (u0, v0, w0) - G(p) at one cell; u0 may be u (in place).
TDC_HD void pressure_gradient_cell(const CentredArgs& a, const double* p, const double* u0, const double* v0,
                                   const double* w0, double* u, double* v, double* w, int i, int j, int k) {
  const TileLayout& L = a.L;
  const std::ptrdiff_t o = L.at(i, j, k);
  u[o] = u0[o] - a.gx * (p[o + 1] - p[o - 1]);
  v[o] = v0[o] - a.gy * (p[o + L.sx()] - p[o - L.sx()]);
  w[o] = w0[o] - a.gz * (p[L.at(i, j, k_above(k, L.nz, a.zb))] - p[L.at(i, j, k_below(k, L.nz, a.zb))]);
}

TDC_HD double divergence_cell(const CentredArgs& a, const double* u, const double* v, const double* w, int i, int j,
                              int k) {
  const TileLayout& L = a.L;
  const std::ptrdiff_t o = L.at(i, j, k);
  return (a.gx * (u[o + 1] - u[o - 1]) + a.gy * (v[o + L.sx()] - v[o - L.sx()])) +
         a.gz * (odd_above(a, w, i, j, k) - odd_below(a, w, i, j, k));
}

// v <- v - s G(p) in place, or v <- v0 - s G(p) (the "from" forms: v0 is read, v only written).
void pressure_gradient_cpu(const CentredArgs& a, const double* p, double* u, double* v, double* w);
void pressure_gradient_from_cpu(const CentredArgs& a, const double* p, const double* const v0[3], double* const v[3]);
void divergence_cpu(const CentredArgs& a, const double* u, const double* v, const double* w, double* f);
#if defined(TASKDYCORE_HAVE_CUDA)
void pressure_gradient_cuda(const CentredArgs& a, const double* p, double* u, double* v, double* w, cudaStream_t s);
void pressure_gradient_from_cuda(const CentredArgs& a, const double* p, const double* const v0[3], double* const v[3],
                                 cudaStream_t s);
void divergence_cuda(const CentredArgs& a, const double* u, const double* v, const double* w, double* f,
                     cudaStream_t s);
#endif

}  // namespace tdc
