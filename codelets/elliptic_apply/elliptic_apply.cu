#include "../common/cell_loop.cuh"
#include "../solver_scalars/solver_state.hpp"
#include "elliptic_apply_kernel.hpp"

namespace tdc {
namespace {

__global__ void apply_kernel(TileLayout L, ColumnCouplings h, const double* __restrict__ coef,
                             const double* __restrict__ st, int skip_from, const double* __restrict__ x,
                             double* __restrict__ y) {
  if (solver_skips(st, skip_from)) return;
  for_each_cell(L.nx, L.ny, [&](int i, int j, int k) { y[L.at(i, j, k)] = apply_cell(L, h, coef, x, i, j, k); });
}

}  // namespace

void elliptic_apply_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                         int skip_from, const double* x, double* y, cudaStream_t stream) {
  apply_kernel<<<cell_grid(L.nx, L.ny, L.nz), cell_block(), 0, stream>>>(L, h, coef, st, skip_from, x, y);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
