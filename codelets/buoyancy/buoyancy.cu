#include "../common/cell_loop.cuh"
#include "buoyancy_kernel.hpp"

namespace tdc {
namespace {

__global__ void buoyancy_kernel(BuoyancyArgs a, const double* theta, double* w) {
  for_each_box_cell(ring_box(a.L, a.ring), [&](int i, int j, int k) { buoyancy_cell(a, theta, w, i, j, k); });
}

}  // namespace

void buoyancy_cuda(const BuoyancyArgs& a, const double* theta, double* w, cudaStream_t stream) {
  buoyancy_kernel<<<box_grid(ring_box(a.L, a.ring), a.L.nz), cell_block(), 0, stream>>>(a, theta, w);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
