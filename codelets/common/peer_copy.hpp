// A copy between two GPUs' memories by a kernel (SM loads and stores over NVLink) rather than by a
// copy engine (cudaMemcpyPeerAsync). In an all-to-all, where every GPU sends to and receives from
// every other at once, the copy engines reach 60-75 % of one pair's rate; a kernel on the
// receiving GPU, reading its peers' memory, does better (tools/link_bench/alltoall_bench,
// docs/performance.md). Needs peer access from the stream's device to the other's memory.
#pragma once
#include <cstddef>

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>

namespace tdc {

// Copies `bytes` from src to dst on `stream` (any alignment; 16-byte words where both are aligned)
// with `blocks` thread blocks (0: kPeerCopyBlocks).
// Enough for a link's rate while the rest of the GPU keeps computing: the 4-GPU Taylor-Green step took
// 7.06-7.22 ms with 16 against 7.35 with 32 (4 x H200, docs/performance.md).
constexpr int kPeerCopyBlocks = 16;
void peer_copy_kernel(void* dst, const void* src, std::size_t bytes, cudaStream_t stream, int blocks = 0);

}  // namespace tdc
#endif
