#include "../common/cuda_check.hpp"
#include "scale_courant_kernel.hpp"

namespace tdc {
namespace {
__global__ void scale_kernel(std::size_t n, double factor, const double* s, double* c) {
  for (std::size_t q = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; q < n;
       q += std::size_t(gridDim.x) * blockDim.x)
    c[q] = factor * s[q];
}
}  // namespace

void scale_cuda(std::size_t n, double factor, const double* s, double* c, cudaStream_t stream) {
  if (n == 0) return;
  const unsigned blocks = unsigned(std::min<std::size_t>((n + 255) / 256, 65535));
  scale_kernel<<<blocks, 256, 0, stream>>>(n, factor, s, c);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
