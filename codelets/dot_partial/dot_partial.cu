#include "../common/fixed_order_sum.cuh"
#include "../solver_scalars/solver_state.hpp"
#include "dot_partial_kernel.hpp"

namespace tdc {
namespace {

// Chunked cell items (fixed_order_sum.hpp), a warp per group. A full item (every item but the
// tile's last few) loads all its cells before it sums them, so that 3 kCellsPerItem loads per lane
// are in flight at once rather than 3 behind a bounds test per cell.
__global__ void dot_kernel(TileLayout L, const double* __restrict__ st, int skip_from, const double* __restrict__ x,
                           const double* __restrict__ y, const double* __restrict__ z, Sums<2>* groups,
                           double* group_max) {
  if (solver_skips(st, skip_from)) return;
  const long cells = cell_items(L), n = chunk_groups(L);
  for (long g = warp_group_first(); g < n; g += warp_group_stride())
    warp_group<2>(g, n * kSumGroup, [&](long item, Sums<2>& s, double& x_max) {
      if (chunk_cell(item, kCellsPerItem - 1) < cells) {
        double xv[kCellsPerItem], yv[kCellsPerItem], zv[kCellsPerItem];
#pragma unroll
        for (int c = 0; c < kCellsPerItem; ++c) {
          int i, j, k;
          cell_of_item(L, chunk_cell(item, c), i, j, k);
          const std::ptrdiff_t o = L.at(i, j, k);
          xv[c] = x[o];
          yv[c] = y[o];
          zv[c] = z[o];
        }
#pragma unroll
        for (int c = 0; c < kCellsPerItem; ++c) dot_partial_add(s, x_max, xv[c], yv[c], zv[c]);
        return;
      }
      for (int c = 0; c < kCellsPerItem; ++c) {
        const long cell = chunk_cell(item, c);
        if (cell >= cells) break;
        int i, j, k;
        cell_of_item(L, cell, i, j, k);
        const std::ptrdiff_t o = L.at(i, j, k);
        dot_partial_add(s, x_max, x[o], y[o], z[o]);
      }
    }, groups, group_max);
}

}  // namespace

void dot_partial_cuda(const TileLayout& L, const double* st, int skip_from, const double* x, const double* y,
                      const double* z, void* groups, double* out, cudaStream_t stream) {
  const long n = chunk_groups(L);
  auto* g = static_cast<Sums<2>*>(groups);
  auto* group_max = reinterpret_cast<double*>(g + n);
  dot_kernel<<<warp_group_grid(n), kWarpGroupThreads, 0, stream>>>(L, st, skip_from, x, y, z, g, group_max);
  TDC_CUDA_CHECK(cudaGetLastError());
  finish_groups_cuda<2>(g, n, out, stream, st + state::kDone, double(skip_from), group_max, out + kMaxAbsAt);
}

}  // namespace tdc
