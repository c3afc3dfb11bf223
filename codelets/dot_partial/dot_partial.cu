#include "../common/fixed_order_sum.cuh"
#include "../solver_scalars/solver_state.hpp"
#include "dot_partial_kernel.hpp"

namespace tdc {
namespace {

// One thread per cell (item order of fixed_order_sum.hpp).
__global__ void dot_kernel(TileLayout L, const double* __restrict__ st, int skip_from, const double* __restrict__ x,
                           const double* __restrict__ y, const double* __restrict__ z, Sums<2>* groups,
                           double* x_max_out) {
  if (solver_skips(st, skip_from)) return;
  const long item = long(blockIdx.x) * kSumGroup + threadIdx.x;
  Sums<2> s{};
  double x_max = 0.0;
  if (item < cell_items(L)) {
    int i, j, k;
    cell_of_item(L, item, i, j, k);
    const std::ptrdiff_t o = L.at(i, j, k);
    x_max = fabs(x[o]);
    s.v[0] = dd_add(s.v[0], x[o] * y[o]);
    s.v[1] = dd_add(s.v[1], x[o] * z[o]);
  }
  block_max_atomic(x_max, x_max_out);
  block_reduce_store(s, groups);
}

}  // namespace

void dot_partial_cuda(const TileLayout& L, const double* st, int skip_from, const double* x, const double* y,
                      const double* z, void* groups, double* out, cudaStream_t stream) {
  const long n = sum_groups(cell_items(L));
  auto* g = static_cast<Sums<2>*>(groups);
  zero_max_cuda(out + kMaxAbsAt, stream);
  dot_kernel<<<unsigned(n), kSumGroup, 0, stream>>>(L, st, skip_from, x, y, z, g, out + kMaxAbsAt);
  TDC_CUDA_CHECK(cudaGetLastError());
  finish_groups_cuda<2>(g, n, out, stream, st + state::kDone, double(skip_from));
}

}  // namespace tdc
