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

// The grid: one block per 32 x 8 patch of columns (blockIdx.x), and as many level groups
// (blockIdx.y) as fill the GPU's resident blocks; a block loops over the levels of its group.
inline dim3 cell_grid(int nx, int ny, int nz) {
  const long patches = long((nx + kCellBlockX - 1) / kCellBlockX) * ((ny + kCellBlockY - 1) / kCellBlockY);
  const long levels = std::max(1L, std::min(long(nz), resident_blocks(kCellBlockX * kCellBlockY) / std::max(1L, patches)));
  return dim3(unsigned(std::max(1L, patches)), unsigned(levels));
}
inline dim3 cell_block() { return dim3(kCellBlockX, kCellBlockY); }

// Calls f(i, j, k) for every cell of [0, nx) x [0, ny) x [0, nz), with blocks of cell_block() threads on
// a cell_grid() grid (rows of 32 along x: coalesced). No division inside the loop.
template <class F>
__device__ __forceinline__ void for_each_cell(int nx, int ny, int nz, F&& f) {
  const int bx = (nx + kCellBlockX - 1) / kCellBlockX;
  const int jb = int(blockIdx.x) / bx, ib = int(blockIdx.x) - jb * bx;
  const int i = ib * kCellBlockX + int(threadIdx.x), j = jb * kCellBlockY + int(threadIdx.y);
  if (i >= nx || j >= ny) return;
  for (int k = int(blockIdx.y); k < nz; k += int(gridDim.y)) f(i, j, k);
}

}  // namespace tdc
