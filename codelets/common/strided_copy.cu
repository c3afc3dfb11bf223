#include "cuda_check.hpp"
#include "strided_copy.hpp"

namespace tdc {
namespace {

// blockIdx.y selects the copy; threads stride over its w*h*nz cells with x fastest (coalesced).
__global__ void strided_copies_kernel(CopyList list, const double* done, double skip_at) {
  if (done && *done >= skip_at) return;
  const StridedCopy& c = list.c[blockIdx.y];
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
  const unsigned blocks = unsigned(std::min<long>((largest + threads - 1) / threads, 4096));
  strided_copies_kernel<<<dim3(blocks, list.n), threads, 0, stream>>>(list, done, skip_at);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
