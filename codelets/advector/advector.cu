#include "../common/cell_loop.cuh"
#include "advector_kernel.hpp"

namespace tdc {
namespace {

__global__ void advector_kernel(AdvectorArgs a, VelocityPointers p, double* c1, double* c2, double* c3) {
  for_each_box_cell(advector_box(a.L, a.ring), [&](int i, int j, int k) { advector_cell(a, p, c1, c2, c3, i, j, k); });
}

}  // namespace

void advector_cuda(const AdvectorArgs& a, const VelocityPointers& p, double* c1, double* c2, double* c3,
                   cudaStream_t stream) {
  advector_kernel<<<box_grid(advector_box(a.L, a.ring), a.L.nz), cell_block(), 0, stream>>>(a, p, c1, c2, c3);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
