#include "../common/cell_loop.cuh"
#include "absorber_kernel.hpp"

namespace tdc {
namespace {

__global__ void absorber_kernel(AbsorberArgs a, const double* e, const double* src, double* dst) {
  for_each_box_cell(ring_box(a.L, a.ring), [&](int i, int j, int k) { absorber_cell(a, e, src, dst, i, j, k); });
}

}  // namespace

void absorber_cuda(const AbsorberArgs& a, const double* e, const double* src, double* dst, cudaStream_t s) {
  absorber_kernel<<<box_grid(ring_box(a.L, a.ring), a.L.nz), cell_block(), 0, s>>>(a, e, src, dst);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
