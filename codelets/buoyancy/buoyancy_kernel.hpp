// buoyancy: w <- w + s theta' over a tile's interior and `ring` columns of its ghost ring, the Boussinesq buoyancy g theta' / theta_0 of
// the NFT step times s = dt/2 (applied twice per step: with theta'^n in the explicit half of the
// forcing, with theta'^(n+1) in the implicit half, which is known before the pressure solve because
// theta' itself is not forced).
#pragma once
#include "../common/tile_layout.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

struct BuoyancyArgs {
  TileLayout L;
  double factor = 0;  // s g / theta_0
  int ring = 0;       // ghost columns computed too (ring_box)
};

TDC_HD void buoyancy_cell(const BuoyancyArgs& a, const double* theta, double* w, int i, int j, int k) {
  const std::ptrdiff_t o = a.L.at(i, j, k);
  w[o] = w[o] + a.factor * theta[o];
}

void buoyancy_cpu(const BuoyancyArgs& a, const double* theta, double* w);
#if defined(TASKDYCORE_HAVE_CUDA)
void buoyancy_cuda(const BuoyancyArgs& a, const double* theta, double* w, cudaStream_t stream);
#endif

}  // namespace tdc
