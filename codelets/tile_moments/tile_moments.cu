#include "../common/cuda_check.hpp"
#include "tile_moments_order.hpp"

namespace tdc {
namespace {

// One block per group of kGroup columns, the same pairwise tree as the CPU kernel.
__global__ void group_kernel(TileLayout L, const double* psi, const double* g, double* partials) {
  __shared__ ColumnMoments s[kGroup];
  const int t = threadIdx.x;
  const int column = blockIdx.x * kGroup + t;
  s[t] = column < L.nx * L.ny ? column_moments(L, psi, g, column) : empty_column();
  __syncthreads();
  for (int stride = kGroup / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] = merge(s[t], s[t + stride]);
    __syncthreads();
  }
  if (t == 0) store(s[0], partials + blockIdx.x * kMomentsDoubles);
}

// Groups in order, as on the CPU: one thread, a few hundred groups at most per tile.
__global__ void total_kernel(int groups, const double* partials, double* out) {
  ColumnMoments total = empty_column();
  for (int q = 0; q < groups; ++q) total = merge(total, load(partials + q * kMomentsDoubles));
  store(total, out);
}

}  // namespace

void tile_moments_cuda(const TileLayout& L, const double* psi, const double* g, double* partials, double* out,
                       cudaStream_t stream) {
  const int groups = moment_groups(L);
  group_kernel<<<groups, kGroup, 0, stream>>>(L, psi, g, partials);
  TDC_CUDA_CHECK(cudaGetLastError());
  total_kernel<<<1, 1, 0, stream>>>(groups, partials, out);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
