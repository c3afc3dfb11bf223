#include "../common/cuda_check.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "elliptic_apply_kernel.hpp"

namespace tdc {
namespace {

__global__ void apply_kernel(TileLayout L, ColumnCouplings h, const double* __restrict__ coef,
                             const double* __restrict__ st, int skip_from, const double* __restrict__ x,
                             double* __restrict__ y) {
  if (solver_skips(st, skip_from)) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y, k = blockIdx.z;
  if (i < L.nx && j < L.ny) y[L.at(i, j, k)] = apply_cell(L, h, coef, x, i, j, k);
}

}  // namespace

void elliptic_apply_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                         int skip_from, const double* x, double* y, cudaStream_t stream) {
  const dim3 block(32, 8);
  const dim3 grid((L.nx + 31) / 32, (L.ny + 7) / 8, L.nz);
  apply_kernel<<<grid, block, 0, stream>>>(L, h, coef, st, skip_from, x, y);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
