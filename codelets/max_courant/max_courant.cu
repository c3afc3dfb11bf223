#include "../common/cell_loop.cuh"
#include "../common/fixed_order_sum.cuh"
#include "max_courant_kernel.hpp"

namespace tdc {
namespace {

// One thread per cell (cell_grid launch); each block's maximum goes to *out by atomicMax.
__global__ void max_courant_kernel(MaxCourantArgs a, const double* u, const double* v, const double* w, double* out) {
  double c = 0.0;
  for_each_cell(a.L.nx, a.L.ny, [&](int i, int j, int k) {
    const std::ptrdiff_t o = a.L.at(i, j, k);
    c = courant_sum(a, u[o], v[o], w[o]);
  });
  block_max_atomic(c, out);
}

}  // namespace

void max_courant_cuda(const MaxCourantArgs& a, const double* u, const double* v, const double* w, double* out,
                      cudaStream_t stream) {
  zero_max_cuda(out, stream);
  max_courant_kernel<<<cell_grid(a.L.nx, a.L.ny, a.L.nz), cell_block(), 0, stream>>>(a, u, v, w, out);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
