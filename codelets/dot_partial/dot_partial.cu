#include "../common/fixed_order_sum.cuh"
#include "../solver_scalars/solver_state.hpp"
#include "../vector_update/vector_update_kernel.hpp"
#include "dot_partial_kernel.hpp"

namespace tdc {
namespace {

// Chunked cell items (fixed_order_sum.hpp), a warp per group. A full item (every item but the
// tile's last few) loads all its cells before it sums them, so that 3 kCellsPerItem loads per lane
// are in flight at once rather than 3 behind a bounds test per cell.
//
// Residual: x is PCG's r and y its q; each cell first takes r <- r - alpha q (vector_update's
// residual_update_args formula) and stores it, then adds the new r's share as <r, r>, <r, r>, max |r|.
template <bool Residual>
__global__ void dot_kernel(TileLayout L, const double* __restrict__ st, int skip_from, double* __restrict__ x,
                           const double* __restrict__ y, const double* __restrict__ z, const double* skip,
                           Sums<2>* groups, double* group_max) {
  if (solver_skips(st, skip_from) || (skip && *skip >= 1.0)) return;
  const double minus_alpha = Residual ? scalar_of(st, state::kAlpha, -1.0) : 0.0;
  // The cell's three values, after the residual update when there is one.
  auto load = [&](std::ptrdiff_t o, double& xv, double& yv, double& zv) {
    if (Residual) {
      xv = axpby(minus_alpha, y[o], 1.0, x[o]);
      x[o] = xv;
      yv = zv = xv;
    } else {
      xv = x[o];
      yv = y[o];
      zv = z[o];
    }
  };
  const long cells = cell_items(L), n = chunk_groups(L);
  for (long g = warp_group_first(); g < n; g += warp_group_stride())
    warp_group<2>(g, n * kSumGroup, [&](long item, Sums<2>& s, double& x_max) {
      if (chunk_cell(item, kCellsPerItem - 1) < cells) {
        double xv[kCellsPerItem], yv[kCellsPerItem], zv[kCellsPerItem];
#pragma unroll
        for (int c = 0; c < kCellsPerItem; ++c) {
          int i, j, k;
          cell_of_item(L, chunk_cell(item, c), i, j, k);
          load(L.at(i, j, k), xv[c], yv[c], zv[c]);
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
        load(L.at(i, j, k), xv, yv, zv);
        dot_partial_add(s, x_max, xv, yv, zv);
      }
    }, groups, group_max);
}

template <bool Residual>
void launch_dot(const TileLayout& L, const double* st, int skip_from, double* x, const double* y, const double* z,
                const double* skip, void* groups, double* out, cudaStream_t stream) {
  const long n = chunk_groups(L);
  auto* g = static_cast<Sums<2>*>(groups);
  auto* group_max = reinterpret_cast<double*>(g + n);
  dot_kernel<Residual><<<warp_group_grid(n), kWarpGroupThreads, 0, stream>>>(L, st, skip_from, x, y, z, skip, g, group_max);
  TDC_CUDA_CHECK(cudaGetLastError());
  // A skip flag is 1 whenever the state skips too, so it alone gates the finish.
  finish_groups_cuda<2>(g, n, out, stream, skip ? skip : st + state::kDone, skip ? 1.0 : double(skip_from), group_max,
                        out + kMaxAbsAt);
}

}  // namespace

void dot_partial_cuda(const TileLayout& L, const double* st, int skip_from, const double* x, const double* y,
                      const double* z, void* groups, double* out, cudaStream_t stream, const double* skip) {
  launch_dot<false>(L, st, skip_from, const_cast<double*>(x), y, z, skip, groups, out, stream);
}

void residual_dot_partial_cuda(const TileLayout& L, const double* st, int skip_from, const double* q, double* r,
                               void* groups, double* out, cudaStream_t stream) {
  launch_dot<true>(L, st, skip_from, r, q, nullptr, nullptr, groups, out, stream);
}

}  // namespace tdc
