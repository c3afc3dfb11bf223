#include "../common/cuda_check.hpp"
#include "solver_scalars_update.hpp"

namespace tdc {
namespace {

struct PartialPointers {
  const double* p[kMaxCombineTiles];
};

__global__ void scalars_kernel(ScalarsArgs a, double* st, PartialPointers ptrs) {
  solver_scalars_update(a, st, ptrs.p);
}

}  // namespace

void solver_scalars_cuda(const ScalarsArgs& a, double* st, const double* const* partials, cudaStream_t stream) {
  PartialPointers ptrs{};
  for (int t = 0; t < partial_count(a); ++t) ptrs.p[t] = partials[t];
  scalars_kernel<<<1, 1, 0, stream>>>(a, st, ptrs);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
