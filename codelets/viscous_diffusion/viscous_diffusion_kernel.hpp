// viscous_diffusion: v <- v + nu dt Lap(v_src) for the three velocity components, with the compact
// 7-point Laplacian of the cell-centred field. The explicit, first-order viscous term of the NFT
// step: v_src is v^n (a copy with a valid ghost ring), v the field being forced. Periodic columns
// wrap; rigid free-slip lids mirror u and v (no vertical shear at the lid) and w with its sign
// flipped (no flow through the lid). scalar_diffusion is the same term for one scalar (theta', kappa
// for nu), even about the lids: insulating lids, so the scalar's total is kept.
#pragma once
#include "../common/tile_layout.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

struct DiffusionArgs {
  TileLayout L;
  double fx = 0, fy = 0, fz = 0;  // nu dt / dx^2, nu dt / dy^2, nu dt / dz^2
  ZBoundary zb = ZBoundary::Periodic;
  int ring = 0;  // ghost columns computed too (ring_box)
};

// parity: +1 for a field even about a lid (u, v), -1 for an odd one (w).
TDC_HD double laplacian_term(const DiffusionArgs& a, const double* s, int i, int j, int k, double parity) {
  const TileLayout& L = a.L;
  const std::ptrdiff_t o = L.at(i, j, k);
  const double c = s[o];
  const bool rigid = a.zb == ZBoundary::Rigid;
  const double up = (rigid && k + 1 == L.nz ? parity : 1.0) * s[L.at(i, j, k_above(k, L.nz, a.zb))];
  const double down = (rigid && k == 0 ? parity : 1.0) * s[L.at(i, j, k_below(k, L.nz, a.zb))];
  return (a.fx * ((s[o + 1] - c) + (s[o - 1] - c)) + a.fy * ((s[o + L.sx()] - c) + (s[o - L.sx()] - c))) +
         a.fz * ((up - c) + (down - c));
}

void viscous_diffusion_cpu(const DiffusionArgs& a, const double* const src[3], double* const dst[3]);
void scalar_diffusion_cpu(const DiffusionArgs& a, const double* src, double* dst);
#if defined(TASKDYCORE_HAVE_CUDA)
void viscous_diffusion_cuda(const DiffusionArgs& a, const double* const src[3], double* const dst[3], cudaStream_t s);
void scalar_diffusion_cuda(const DiffusionArgs& a, const double* src, double* dst, cudaStream_t s);
#endif

}  // namespace tdc
