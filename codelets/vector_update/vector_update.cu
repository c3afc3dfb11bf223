#include "../common/cuda_check.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "vector_update_kernel.hpp"

namespace tdc {
namespace {

__global__ void update_kernel(VectorUpdateArgs u, const double* __restrict__ st, const double* __restrict__ x,
                              double* __restrict__ y) {
  if (solver_skips(st, u.skip_from)) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y, k = blockIdx.z;
  if (i >= u.L.nx || j >= u.L.ny) return;
  const double a = scalar_of(st, u.ia, u.sa), b = scalar_of(st, u.ib, u.sb);
  const std::ptrdiff_t o = u.L.at(i, j, k);
  y[o] = b == 0.0 ? a * x[o] : a * x[o] + b * y[o];
}

}  // namespace

void vector_update_cuda(const VectorUpdateArgs& u, const double* st, const double* x, double* y, cudaStream_t stream) {
  const dim3 block(32, 8);
  const dim3 grid((u.L.nx + 31) / 32, (u.L.ny + 7) / 8, u.L.nz);
  update_kernel<<<grid, block, 0, stream>>>(u, st, x, y);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
