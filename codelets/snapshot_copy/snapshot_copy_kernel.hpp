// The plain snapshot_copy kernels: dst = src, n doubles (no StarPU here).
#pragma once
#include <cstddef>

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

void snapshot_copy_cpu(std::size_t n, const double* src, double* dst);
#if defined(TASKDYCORE_HAVE_CUDA)
void snapshot_copy_cuda(std::size_t n, const double* src, double* dst, cudaStream_t stream);
#endif

}  // namespace tdc
