// The plain scale_courant kernels: c = factor * s (no StarPU here).
#pragma once
#include <cstddef>

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

void scale_cpu(std::size_t n, double factor, const double* s, double* c);
#if defined(TASKDYCORE_HAVE_CUDA)
void scale_cuda(std::size_t n, double factor, const double* s, double* c, cudaStream_t stream);
#endif

}  // namespace tdc
