// snapshot_copy: copies a tile field into a snapshot handle, so that diagnostics can read the
// state of step n at low priority while step n+2 already overwrites the field.
#pragma once
#include <starpu.h>

#include <cstddef>

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

void snapshot_copy_cpu(std::size_t n, const double* src, double* dst);
#if defined(TASKDYCORE_HAVE_CUDA)
void snapshot_copy_cuda(std::size_t n, const double* src, double* dst, cudaStream_t stream);
#endif

void insert_snapshot_copy(starpu_data_handle_t src, starpu_data_handle_t dst, int priority);

}  // namespace tdc
