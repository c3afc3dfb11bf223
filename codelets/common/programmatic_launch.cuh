// Programmatic dependent launch (sm_90): a kernel launched after another on the same stream may be
// scheduled while the one before it still runs, and waits on the device (not in a launch gap) until that
// grid has finished and its writes are visible. Kernels launched this way call wait_for_previous_grid()
// before they touch memory (the previous kernel's or anything it reads), then allow_next_grid() so that
// the kernel after them may be scheduled as early. Both are no-ops for a kernel launched plainly.
#pragma once
#include <cuda_runtime.h>

#include <utility>

#include "cuda_check.hpp"

namespace tdc {

__device__ __forceinline__ void wait_for_previous_grid() { asm volatile("griddepcontrol.wait;" ::: "memory"); }
__device__ __forceinline__ void allow_next_grid() { asm volatile("griddepcontrol.launch_dependents;" :::); }

// kernel<<<grid, block, shared, stream>>>(args...), as a programmatic dependent of the kernel before it
// on the stream when after_kernel is true (the first kernel of a recorded graph has none: plain).
template <class... Params, class... Args>
void launch_programmatic(bool after_kernel, dim3 grid, dim3 block, std::size_t shared, cudaStream_t stream,
                         void (*kernel)(Params...), Args&&... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared;
  config.stream = stream;
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  config.attrs = &attribute;
  config.numAttrs = after_kernel ? 1 : 0;
  TDC_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
}

}  // namespace tdc
