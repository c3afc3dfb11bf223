#include "../common/cell_loop.cuh"
#include "../common/fixed_order_sum.cuh"
#include "advector_kernel.hpp"

namespace tdc {
namespace {

__global__ void advector_kernel(AdvectorArgs a, VelocityPointers p, double* c1, double* c2, double* c3) {
  for_each_box_cell(advector_box(a.L, a.ring), [&](int i, int j, int k) { advector_cell(a, p, c1, c2, c3, i, j, k); });
}

// The same and the interior's largest Courant sum, each block's to *max_courant by atomicMax.
__global__ void advector_courant_kernel(AdvectorArgs a, VelocityPointers p, double* c1, double* c2, double* c3,
                                        double* max_courant) {
  double m = 0.0;
  for_each_box_cell(advector_box(a.L, a.ring), [&](int i, int j, int k) {
    advector_cell(a, p, c1, c2, c3, i, j, k);
    if (i >= 0 && i < a.L.nx && j >= 0 && j < a.L.ny) {
      const std::ptrdiff_t o = a.L.at(i, j, k);
      m = courant_sum(courant_args(a), p.u[o], p.v[o], p.w[o]);
    }
  });
  block_max_atomic(m, max_courant);
}

}  // namespace

void advector_cuda(const AdvectorArgs& a, const VelocityPointers& p, double* c1, double* c2, double* c3,
                   cudaStream_t stream, double* max_courant) {
  const dim3 grid = box_grid(advector_box(a.L, a.ring), a.L.nz);
  if (max_courant) {
    zero_max_cuda(max_courant, stream);
    advector_courant_kernel<<<grid, cell_block(), 0, stream>>>(a, p, c1, c2, c3, max_courant);
  } else {
    advector_kernel<<<grid, cell_block(), 0, stream>>>(a, p, c1, c2, c3);
  }
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
