#include <cstdint>

#include "cuda_check.hpp"
#include "peer_copy.hpp"

namespace tdc {
namespace {

constexpr int kThreads = 512;
constexpr int kUnroll = 4;  // loads in flight per thread

__global__ void copy_words(uint4* __restrict__ dst, const uint4* __restrict__ src, std::size_t n) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (kUnroll - 1) * stride < n; i += kUnroll * stride) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = src[i + u * stride];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) dst[i + u * stride] = v[u];
  }
  for (; i < n; i += stride) dst[i] = src[i];
}

__global__ void copy_bytes(unsigned char* dst, const unsigned char* src, std::size_t n) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    dst[i] = src[i];
}

}  // namespace

void peer_copy_kernel(void* dst, const void* src, std::size_t bytes, cudaStream_t stream, int blocks) {
  if (bytes == 0) return;
  if (blocks <= 0) blocks = kPeerCopyBlocks;
  const bool aligned = (reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src)) % 16 == 0;
  const std::size_t words = aligned ? bytes / 16 : 0, tail = bytes - words * 16;
  if (words)
    copy_words<<<blocks, kThreads, 0, stream>>>(static_cast<uint4*>(dst), static_cast<const uint4*>(src), words);
  if (tail)
    copy_bytes<<<1, 256, 0, stream>>>(static_cast<unsigned char*>(dst) + words * 16,
                                      static_cast<const unsigned char*>(src) + words * 16, tail);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
