// The launch shape of the cell-parallel solver kernels: a thread per cell, blocks of 32 x 8 columns
// on one level (rows of 32 along x: coalesced). Measured on the H100 at 256^3, this beat a
// grid-stride loop over levels with the resident grid (vector update 0.155 against 0.196 ms, V-cycle
// 0.76 against 0.90 ms), though a skipped launch costs more (65 536 empty blocks, ~30 us).
#pragma once
#include "cuda_check.hpp"
#include "tile_layout.hpp"

namespace tdc {

constexpr int kCellBlockX = 32, kCellBlockY = 8;

inline dim3 cell_grid(int nx, int ny, int nz) {
  return dim3(unsigned((nx + kCellBlockX - 1) / kCellBlockX), unsigned((ny + kCellBlockY - 1) / kCellBlockY),
              unsigned(nz));
}
inline dim3 cell_block() { return dim3(kCellBlockX, kCellBlockY); }

// The launch shape over a box of cells (it may reach into the ghost ring), every level.
inline dim3 box_grid(const Box& b, int nz) { return cell_grid(b.width(), b.height(), nz); }
// Calls f(i, j, k) for this thread's cell of box b (a box_grid() launch).
template <class F>
__device__ __forceinline__ void for_each_box_cell(const Box& b, F&& f) {
  const int i = b.i0 + int(blockIdx.x) * kCellBlockX + int(threadIdx.x);
  const int j = b.j0 + int(blockIdx.y) * kCellBlockY + int(threadIdx.y);
  if (i < b.i1 && j < b.j1) f(i, j, int(blockIdx.z));
}

// A few boxes' cells on every level as one launch, a thread a cell (a split task's border: its boxes
// are 1 to 4 columns wide or high, where a 32 x 8 block a box would leave most threads idle).
constexpr int kBoxSetThreads = 256;
struct BoxSet {
  Box box[4];
  int n = 0;
  int area[4] = {};  // each box's cells a level
  int level = 0;     // all boxes' cells a level
};
inline BoxSet box_set(const Box* boxes, int n) {
  BoxSet s;
  for (int q = 0; q < n; ++q)
    if (!boxes[q].empty()) {
      s.box[s.n] = boxes[q];
      s.area[s.n] = boxes[q].width() * boxes[q].height();
      s.level += s.area[s.n++];
    }
  return s;
}
inline dim3 box_set_grid(const BoxSet& s, int nz) {
  return dim3(unsigned((long(s.level) * nz + kBoxSetThreads - 1) / kBoxSetThreads));
}
// Calls f(i, j, k) for this thread's cell of the set (a box_set_grid() launch of kBoxSetThreads):
// level by level, box by box, row by row, so that neighbouring threads take neighbouring cells.
template <class F>
__device__ __forceinline__ void for_each_box_set_cell(const BoxSet& s, int nz, F&& f) {
  const long e = long(blockIdx.x) * kBoxSetThreads + threadIdx.x;
  if (e >= long(s.level) * nz) return;
  const int k = int(e / s.level);
  int r = int(e - long(k) * s.level), q = 0;
  while (q + 1 < s.n && r >= s.area[q]) r -= s.area[q++];
  const Box& b = s.box[q];
  f(b.i0 + r % b.width(), b.j0 + r / b.width(), k);
}

// Calls f(i, j, k) for this thread's cell of [0, nx) x [0, ny) (a cell_grid() launch: k = blockIdx.z).
template <class F>
__device__ __forceinline__ void for_each_cell(int nx, int ny, F&& f) {
  const int i = int(blockIdx.x) * kCellBlockX + int(threadIdx.x), j = int(blockIdx.y) * kCellBlockY + int(threadIdx.y);
  if (i < nx && j < ny) f(i, j, int(blockIdx.z));
}

}  // namespace tdc
