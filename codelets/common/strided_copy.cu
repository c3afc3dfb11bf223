#include <algorithm>

#include "cuda_check.hpp"
#include "strided_copy.hpp"

namespace tdc {
namespace {

// blockIdx.y selects the copy. Rows at least a warp wide: a block per row group, threads along the
// row (one division per row, coalesced); narrow boxes (halo strips): threads over cells, x fastest.
__global__ void strided_copies_kernel(CopyList list, const double* done, double skip_at) {
  if (done && *done >= skip_at) return;
  const StridedCopy& c = list.c[blockIdx.y];
  if (c.w >= 32) {
    const long rows = long(c.h) * c.nz;
    for (long r = blockIdx.x; r < rows; r += gridDim.x) {
      const int b = int(r % c.h), k = int(r / c.h);
      const double* src = c.src + c.src_offset + b * c.src_row + k * c.src_plane;
      double* dst = c.dst + c.dst_offset + b * c.dst_row + k * c.dst_plane;
      for (int a = threadIdx.x; a < c.w; a += blockDim.x) dst[a] = src[a];
    }
    return;
  }
  const long cells = long(c.w) * c.h * c.nz;
  for (long n = blockIdx.x * long(blockDim.x) + threadIdx.x; n < cells; n += long(gridDim.x) * blockDim.x) {
    const int a = int(n % c.w);
    const long rest = n / c.w;
    const int b = int(rest % c.h);
    const int k = int(rest / c.h);
    c.dst[c.dst_offset + a + b * c.dst_row + k * c.dst_plane] =
        c.src[c.src_offset + a + b * c.src_row + k * c.src_plane];
  }
}

}  // namespace

// Blocks a copy needs: one per row of wide rows, one per `threads` cells of a narrow box. (Counting
// a narrow box's rows instead launched some 10^5 blocks for a halo's west and east strips, nearly
// all returning at once, and the launch cost the halo tasks most of their time.)
static long blocks_for(const StridedCopy& c, int threads) {
  const long rows = long(c.h) * c.nz;
  return c.w >= 32 ? rows : (rows * c.w + threads - 1) / threads;
}

void strided_copies_cuda(const CopyList& list, cudaStream_t stream, const double* done, double skip_at) {
  if (list.n == 0) return;
  const int threads = 256;
  long blocks = 1;
  for (int n = 0; n < list.n; ++n) blocks = std::max(blocks, blocks_for(list.c[n], threads));
  // Beyond this the grid-stride loops take several rows or cells a block.
  constexpr long kMaxBlocks = 2048;
  strided_copies_kernel<<<dim3(unsigned(std::min(blocks, kMaxBlocks)), list.n), threads, 0, stream>>>(list, done,
                                                                                                       skip_at);
  TDC_CUDA_CHECK(cudaGetLastError());
}

void strided_copies_cuda(const std::vector<StridedCopy>& copies, cudaStream_t stream, const double* done,
                         double skip_at) {
  CopyList list;
  for (const StridedCopy& c : copies) {
    list.add(c);
    if (list.n == kMaxCopies) {
      strided_copies_cuda(list, stream, done, skip_at);
      list.n = 0;
    }
  }
  strided_copies_cuda(list, stream, done, skip_at);
}

}  // namespace tdc
