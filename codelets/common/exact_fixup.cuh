// The second chance of a kernel that divides with BranchFreeDivide: a thread whose quotients left
// the divider's fast path records its cell in a per-stream list, and a kernel of one wave launched
// right after it recomputes the recorded cells with a / b. The main kernel then carries no second
// copy of its formulae (inlined, that copy cost the antidiffusive kernel 30 registers), and the
// fix-up costs one short launch: a diffusion front puts a few tens of thousands of cells in the list
// (tiny psi), 10-16 us at 256^3. One block and 2^14 cells were too few: the list overflowed and the
// block recomputed the whole box (108 ms a step).
#pragma once
#include <cuda_runtime.h>

#include "tile_layout.hpp"

namespace tdc {

struct FixupList {
  unsigned* count;  // cells recorded since the last fix-up (may exceed capacity)
  unsigned* done;   // fix-up blocks finished (the last one empties the list)
  unsigned* cells;  // the first `capacity` of them, as offsets in the launch's box of columns x levels
  unsigned capacity;
};
constexpr unsigned kFixupBlocks = 264, kFixupThreads = 256;

// The list of the current device and this stream, allocated (empty) on first use.
FixupList fixup_list_for(cudaStream_t stream);

// Records cell (i, j, k) where `off_fast_path`; one atomic per warp (a diffusion front can put
// thousands of cells in the list, and one counter takes their atomics one at a time).
__device__ __forceinline__ void record_fixup(const FixupList& f, Box box, int i, int j, int k, bool off_fast_path) {
  const unsigned lanes = __activemask();
  const unsigned marked = __ballot_sync(lanes, off_fast_path);
  if (!marked) return;
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));  // whatever the block's shape
  const int leader = __ffs(marked) - 1;
  unsigned base = 0;
  if (int(lane) == leader) base = atomicAdd(f.count, unsigned(__popc(marked)));
  base = __shfl_sync(lanes, base, leader);
  if (!off_fast_path) return;
  const unsigned slot = base + unsigned(__popc(marked & ((1u << lane) - 1u)));
  if (slot < f.capacity)
    f.cells[slot] =
        (unsigned(k) * unsigned(box.height()) + unsigned(j - box.j0)) * unsigned(box.width()) + unsigned(i - box.i0);
}

// cell(i, j, k, Exact{}) for every recorded cell (or, if the list overflowed, for every cell of
// box x [0, nz)), then empties the list. Launch with kFixupBlocks x kFixupThreads: with an empty list
// every block returns at once.
template <class Exact, class Cell>
__global__ void fixup_kernel(FixupList f, Box box, int nz, Cell cell) {
  const unsigned n = *f.count;
  if (n == 0) return;
  const unsigned w = unsigned(box.width()), h = unsigned(box.height());
  const unsigned total = n <= f.capacity ? n : w * h * unsigned(nz);
  for (unsigned e = blockIdx.x * blockDim.x + threadIdx.x; e < total; e += gridDim.x * blockDim.x) {
    const unsigned off = n <= f.capacity ? f.cells[e] : e;
    cell(box.i0 + int(off % w), box.j0 + int(off / w % h), int(off / (w * h)), Exact{});
  }
  __syncthreads();
  if (threadIdx.x == 0 && atomicAdd(f.done, 1u) == gridDim.x - 1) {  // every block has read the count
    *f.count = 0;
    *f.done = 0;
  }
}

}  // namespace tdc
