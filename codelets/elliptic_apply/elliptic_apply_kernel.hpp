// elliptic_apply: y = A x for the column operator (paper 002 eq. 18), unfused (one pass, no sums).
// `st` is the solver state; the kernel does nothing once st[done] >= skip_from.
#pragma once
#include "../column_operator/column_operator.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

void elliptic_apply_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                        int skip_from, const double* x, double* y);
#if defined(TASKDYCORE_HAVE_CUDA)
void elliptic_apply_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                         int skip_from, const double* x, double* y, cudaStream_t stream);
#endif

}  // namespace tdc
