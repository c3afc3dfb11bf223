// dot_partial: a tile's compensated partials of <x, y> and <x, z> (the unfused PCG's dot products),
// in the fixed order of common/fixed_order_sum.hpp, chunked cell items.
#pragma once
#include "../common/fixed_order_sum.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

// out: 2 compensated sums (4 doubles).
void dot_partial_cpu(const TileLayout& L, const double* st, int skip_from, const double* x, const double* y,
                     const double* z, double* out);
#if defined(TASKDYCORE_HAVE_CUDA)
// groups: device scratch of dot_partial_scratch_bytes(L).
void dot_partial_cuda(const TileLayout& L, const double* st, int skip_from, const double* x, const double* y,
                      const double* z, void* groups, double* out, cudaStream_t stream);
#endif
std::size_t dot_partial_scratch_bytes(const TileLayout& L);

}  // namespace tdc
