// dot_partial's CUDA kernel over chunked cell items (fixed_order_sum.hpp), a warp per group, for any way
// of getting a cell's three values (x, y, z): dot_partial reads them, the fused residual codelets
// (codelets/residual_dot) first make r and store it. The partials are <x, y>, <x, z> and max |x>, in the
// same order whatever the loader, so the fused forms give dot_partial's bits.
#pragma once
#include "../common/fixed_order_sum.cuh"
#include "../solver_scalars/solver_state.hpp"
#include "dot_partial_kernel.hpp"

namespace tdc {

// A full item (every item but the tile's last few) loads all its cells before it sums them, so that
// 3 kCellsPerItem loads per lane are in flight at once rather than 3 behind a bounds test per cell.
// load(i, j, k, x, y, z) gives the cell's values. skip (optional): also skipped when *skip >= 1.
template <class Load>
__global__ void dot_items_kernel(TileLayout L, const double* __restrict__ st, int skip_from, const double* skip,
                                 Load load, Sums<2>* groups, double* group_max) {
  if (solver_skips(st, skip_from) || (skip && *skip >= 1.0)) return;
  const long cells = cell_items(L), n = chunk_groups(L);
  for (long g = warp_group_first(); g < n; g += warp_group_stride())
    warp_group<2>(
        g, n * kSumGroup,
        [&](long item, Sums<2>& s, double& x_max) {
          if (chunk_cell(item, kCellsPerItem - 1) < cells) {
            double xv[kCellsPerItem], yv[kCellsPerItem], zv[kCellsPerItem];
#pragma unroll
            for (int c = 0; c < kCellsPerItem; ++c) {
              int i, j, k;
              cell_of_item(L, chunk_cell(item, c), i, j, k);
              load(i, j, k, xv[c], yv[c], zv[c]);
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
            double xv, yv, zv;
            load(i, j, k, xv, yv, zv);
            dot_partial_add(s, x_max, xv, yv, zv);
          }
        },
        groups, group_max);
}

// The kernel and its finish (one block) into out; groups: dot_partial_scratch_bytes(L) of scratch.
template <class Load>
void launch_dot_items(const TileLayout& L, const double* st, int skip_from, const double* skip, const Load& load,
                      void* groups, double* out, cudaStream_t stream) {
  const long n = chunk_groups(L);
  auto* g = static_cast<Sums<2>*>(groups);
  auto* group_max = reinterpret_cast<double*>(g + n);
  dot_items_kernel<<<warp_group_grid(n), kWarpGroupThreads, 0, stream>>>(L, st, skip_from, skip, load, g, group_max);
  TDC_CUDA_CHECK(cudaGetLastError());
  // A skip flag is 1 whenever the state skips too, so it alone gates the finish.
  finish_groups_cuda<2>(g, n, out, stream, skip ? skip : st + state::kDone, skip ? 1.0 : double(skip_from), group_max,
                        out + kMaxAbsAt);
}

}  // namespace tdc
