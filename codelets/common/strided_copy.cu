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

void strided_copies_cuda(const CopyList& list, cudaStream_t stream, const double* done, double skip_at) {
  if (list.n == 0) return;
  long largest = 0;
  for (int n = 0; n < list.n; ++n) largest = std::max(largest, long(list.c[n].w) * list.c[n].h * list.c[n].nz);
  const int threads = 256;
  // Enough blocks for either mapping: one per row of the longest rows, or one per 256 cells.
  long rows = 0;
  for (int n = 0; n < list.n; ++n) rows = std::max(rows, long(list.c[n].h) * list.c[n].nz);
  const unsigned blocks = unsigned(std::min<long>(std::max((largest + threads - 1) / threads, rows), 8192));
  strided_copies_kernel<<<dim3(blocks, list.n), threads, 0, stream>>>(list, done, skip_at);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
