// A list of strided 3D box copies: the one primitive behind halo pack and unpack (CPU and CUDA).
#pragma once
#include <cstddef>
#include <vector>

#include "tile_layout.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

struct StridedCopy {
  const double* src = nullptr;
  double* dst = nullptr;
  std::ptrdiff_t src_offset = 0, dst_offset = 0;  // element offsets of the box's first cell
  std::ptrdiff_t src_row = 0, src_plane = 0;      // element strides in y and z
  std::ptrdiff_t dst_row = 0, dst_plane = 0;
  int w = 0, h = 0, nz = 0;  // box extent
};

// One kernel launch's copies (its parameter block: 32 copies stay inside CUDA's 4 KB).
constexpr int kMaxCopies = 32;
struct CopyList {
  int n = 0;
  StridedCopy c[kMaxCopies];
  void add(const StridedCopy& copy) { c[n++] = copy; }
  void append_to(std::vector<StridedCopy>& v) const { v.insert(v.end(), c, c + n); }
};
// A launch passes the list by value beside two more words: CUDA's parameter limit is 4 KB.
static_assert(sizeof(CopyList) + 16 <= 4096, "a CopyList must fit a CUDA kernel's parameters");

// Copies between a tile array and a strip: (i0, j0) is the box origin in the tile's interior
// coordinates, (a0, b0) in the strip's, `strip` the strip's horizontal shape.
StridedCopy tile_to_strip(const TileLayout& L, const double* tile, int i0, int j0, int w, int h, double* strip,
                          const StripShape& s, int a0, int b0);
StridedCopy strip_to_tile(const TileLayout& L, const double* strip, const StripShape& s, int a0, int b0, double* tile,
                          int i0, int j0, int w, int h);

// Copies between two tile arrays: the w × h box at (i0, j0) of `from` (interior coordinates) to
// (a0, b0) of `to`, every level (say a tile's interior into its place in a whole level).
StridedCopy tile_to_tile(const TileLayout& from, const double* src, int i0, int j0, const TileLayout& to, double* dst,
                         int a0, int b0, int w, int h);

void strided_copies_cpu(const CopyList& list);
// Any number of copies (on the GPU in launches of kMaxCopies).
void strided_copies_cpu(const std::vector<StridedCopy>& copies);
#if defined(TASKDYCORE_HAVE_CUDA)
// With `done` given (device memory), nothing is copied when *done >= skip_at (a skipped solver task).
void strided_copies_cuda(const CopyList& list, cudaStream_t stream, const double* done = nullptr, double skip_at = 0.0);
void strided_copies_cuda(const std::vector<StridedCopy>& copies, cudaStream_t stream, const double* done = nullptr,
                         double skip_at = 0.0);
#endif

}  // namespace tdc
