// line_precon: z = M^{-1} r, the vertical line preconditioner (paper 002 eq. 19, Alg. 3 without the
// fused vector updates; paper 000 Alg. 2): one tridiagonal (Thomas) solve per column. The horizontal
// index is fastest in memory (paper 002 eq. 22), so a GPU thread per column reads coalesced.
#pragma once
#include "../column_operator/column_operator.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

// s: the vertical stride of the operator (s interleaved systems per column).
void line_precon_cpu(const TileLayout& L, const double* coef, const double* st, int skip_from, int s, const double* r,
                     double* z);
#if defined(TASKDYCORE_HAVE_CUDA)
void line_precon_cuda(const TileLayout& L, const double* coef, const double* st, int skip_from, int s, const double* r,
                      double* z, cudaStream_t stream);
#endif

}  // namespace tdc
