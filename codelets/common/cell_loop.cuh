// Grid-stride launches for the cell-parallel kernels of the solvers. A solver submits iterations
// ahead of convergence, and a skipped iteration's kernels return at once; with one block per
// 32 x 8 x 1 cells a skipped kernel still paid for scheduling 65 536 empty blocks at 256^3
// (~50 us). Here the grid is what the GPU holds resident at once, and each block loops over its
// share, so a skipped kernel costs a launch. Which thread computes a cell does not change its value,
// so results are the same bits either way.
#pragma once
#include <algorithm>

#include "cuda_check.hpp"

namespace tdc {

constexpr int kCellBlockX = 32, kCellBlockY = 8;

// Blocks the current device holds resident at once with `threads` per block.
inline long resident_blocks(int threads) {
  int device = 0, sms = 0, per_sm = 0;
  TDC_CUDA_CHECK(cudaGetDevice(&device));
  TDC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  TDC_CUDA_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  return long(sms) * std::max(1, per_sm / threads);
}

// The number of (32 x 8)-cell column blocks of an nx x ny x nz box, and the grid that covers them.
inline long cell_blocks(int nx, int ny, int nz) {
  return long((nx + kCellBlockX - 1) / kCellBlockX) * ((ny + kCellBlockY - 1) / kCellBlockY) * nz;
}
inline unsigned cell_grid(int nx, int ny, int nz) {
  return unsigned(std::max(1L, std::min(cell_blocks(nx, ny, nz), resident_blocks(kCellBlockX * kCellBlockY))));
}
inline dim3 cell_block() { return dim3(kCellBlockX, kCellBlockY); }

// Calls f(i, j, k) for every cell of [0, nx) x [0, ny) x [0, nz), blocks of cell_block() threads on a
// cell_grid() grid. Blocks run in (x-block, y-block, k) order, x fastest (coalesced rows).
template <class F>
__device__ __forceinline__ void for_each_cell(int nx, int ny, int nz, F&& f) {
  const int bx = (nx + kCellBlockX - 1) / kCellBlockX, by = (ny + kCellBlockY - 1) / kCellBlockY;
  const int plane_blocks = bx * by;
  const long total = long(plane_blocks) * nz;
  for (long b = blockIdx.x; b < total; b += gridDim.x) {
    const int k = int(b / plane_blocks), r = int(b - long(k) * plane_blocks);
    const int j = (r / bx) * kCellBlockY + int(threadIdx.y), i = (r % bx) * kCellBlockX + int(threadIdx.x);
    if (i < nx && j < ny) f(i, j, k);
  }
}

}  // namespace tdc
