// pressure_gradient: v <- v - s G(p) with the centred (collocated) gradient, EULAG's prforc and the
// velocity correction of the NFT step: Gx p = (p_i+1 - p_i-1) / (2 dx), likewise in y and z (periodic
// columns). divergence: f = s D(v) with the centred divergence. D(G p) is laplc's L p exactly, so a
// velocity corrected with the solution of L p = D(v) / s' has no centred divergence left.
#pragma once
#include "../common/tile_layout.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

struct CentredArgs {
  TileLayout L;
  double gx = 0, gy = 0, gz = 0;  // s / (2 dx), s / (2 dy), s / (2 dz)
};

TDC_HD int k_up(const TileLayout& L, int k) { return k + 1 < L.nz ? k + 1 : 0; }
TDC_HD int k_down(const TileLayout& L, int k) { return k > 0 ? k - 1 : L.nz - 1; }

TDC_HD void pressure_gradient_cell(const CentredArgs& a, const double* p, double* u, double* v, double* w, int i, int j,
                                   int k) {
  const TileLayout& L = a.L;
  const std::ptrdiff_t o = L.at(i, j, k);
  u[o] = u[o] - a.gx * (p[o + 1] - p[o - 1]);
  v[o] = v[o] - a.gy * (p[o + L.sx()] - p[o - L.sx()]);
  w[o] = w[o] - a.gz * (p[L.at(i, j, k_up(L, k))] - p[L.at(i, j, k_down(L, k))]);
}

TDC_HD double divergence_cell(const CentredArgs& a, const double* u, const double* v, const double* w, int i, int j,
                              int k) {
  const TileLayout& L = a.L;
  const std::ptrdiff_t o = L.at(i, j, k);
  return (a.gx * (u[o + 1] - u[o - 1]) + a.gy * (v[o + L.sx()] - v[o - L.sx()])) +
         a.gz * (w[L.at(i, j, k_up(L, k))] - w[L.at(i, j, k_down(L, k))]);
}

void pressure_gradient_cpu(const CentredArgs& a, const double* p, double* u, double* v, double* w);
void divergence_cpu(const CentredArgs& a, const double* u, const double* v, const double* w, double* f);
#if defined(TASKDYCORE_HAVE_CUDA)
void pressure_gradient_cuda(const CentredArgs& a, const double* p, double* u, double* v, double* w, cudaStream_t s);
void divergence_cuda(const CentredArgs& a, const double* u, const double* v, const double* w, double* f,
                     cudaStream_t s);
#endif

}  // namespace tdc
