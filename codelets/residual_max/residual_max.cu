#include "../common/cell_loop.cuh"
#include "../common/fixed_order_sum.cuh"
#include "../vector_update/vector_update_kernel.hpp"
#include "residual_max_kernel.hpp"

namespace tdc {
namespace {

// One thread per cell (cell_grid launch); each block's maxima go to out by atomicMax.
template <int S>
__global__ void residual_max_kernel(TileLayout L, ColumnCouplings h, const double* __restrict__ coef,
                                    const double* __restrict__ u, const double* __restrict__ f, double* out) {
  double f_max = 0.0, r_max = 0.0;
  for_each_cell(L.nx, L.ny, [&](int i, int j, int k) {
    const double fo = f[L.at(i, j, k)];
    f_max = check_magnitude(fo);
    r_max = check_magnitude(axpby(1.0, fo, -1.0, apply_cell(L, with_strides<S>(h), coef, u, i, j, k)));
  });
  block_max_atomic(f_max, out + kResidualMaxF);
  block_max_atomic(r_max, out + kResidualMaxR);
}

}  // namespace

void elliptic_residual_max_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* u,
                                const double* f, double* out, cudaStream_t stream) {
  TDC_CUDA_CHECK(cudaMemsetAsync(out, 0, 2 * sizeof(double), stream));
  with_stride_constant(h, [&](auto S) {
    residual_max_kernel<decltype(S)::value>
        <<<cell_grid(L.nx, L.ny, L.nz), cell_block(), 0, stream>>>(L, h, coef, u, f, out);
  });
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
