// residual_dot: a Krylov residual made and its dot_partial sums taken in one pass over the tile (one
// pass fewer than the separate codelets, the same bits):
//   residual_update_dot:   r <- r - s q with s = state[scalar] (PCG's alpha, GCR's beta), in
//                          vector_update's formula (residual_update_args);
//   elliptic_residual_dot: r <- f - A u, elliptic_apply's A u then vector_update's f - (A u);
// each followed by dot_partial's partials of (r, r, r): <r, r> in both sum slots and max |r|.
// Nothing is done once state[done] >= skip_from.
#pragma once
#include "../column_operator/column_operator.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

void residual_update_dot_cpu(const TileLayout& L, const double* st, int skip_from, int scalar, const double* q,
                             double* r, double* out);
void elliptic_residual_dot_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                               int skip_from, const double* u, const double* f, double* r, double* out);
#if defined(TASKDYCORE_HAVE_CUDA)
// groups: dot_partial_scratch_bytes(L) of device scratch.
void residual_update_dot_cuda(const TileLayout& L, const double* st, int skip_from, int scalar, const double* q,
                              double* r, void* groups, double* out, cudaStream_t stream);
void elliptic_residual_dot_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                                int skip_from, const double* u, const double* f, double* r, void* groups, double* out,
                                cudaStream_t stream);
#endif

}  // namespace tdc
