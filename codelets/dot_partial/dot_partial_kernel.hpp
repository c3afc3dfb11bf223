// dot_partial: a tile's compensated partials of <x, y> and <x, z> (the unfused PCG's dot products),
// in the fixed order of common/fixed_order_sum.hpp, chunked cell items.
#pragma once
#include <cmath>

#include "../common/fixed_order_sum.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

// One cell's share: <x, y>, <x, z> and max |x| (the CUDA forms; the CPU's reducer sums the same products).
TDC_HD void dot_partial_add(Sums<2>& s, double& x_max, double x, double y, double z) {
  x_max = fmax(x_max, fabs(x));
  s.v[0] = dd_add(s.v[0], x * y);
  s.v[1] = dd_add(s.v[1], x * z);
}

// out: 2 compensated sums (4 doubles).
void dot_partial_cpu(const TileLayout& L, const double* st, int skip_from, const double* x, const double* y,
                     const double* z, double* out);
#if defined(TASKDYCORE_HAVE_CUDA)
// groups: device scratch of dot_partial_scratch_bytes(L). skip (optional, on the device): also
// skipped when *skip >= 1, a flag that must be 1 whenever the state skips (mark_skip's).
void dot_partial_cuda(const TileLayout& L, const double* st, int skip_from, const double* x, const double* y,
                      const double* z, void* groups, double* out, cudaStream_t stream, const double* skip = nullptr);
#endif
std::size_t dot_partial_scratch_bytes(const TileLayout& L);
// dot_partial_cpu without the solver-state gate.
void dot_partial_rows_cpu(const TileLayout& L, const double* x, const double* y, const double* z, double* out);

}  // namespace tdc
