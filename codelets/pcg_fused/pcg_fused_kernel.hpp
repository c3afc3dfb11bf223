// The interleaved (loop-fused) PCG kernels of paper 002, Alg. 1-3, for the multigrid and spectral
// preconditioners (their own codelets do Alg. 3's r update with the preconditioner; the line
// preconditioner's iteration is codelets/pcg_line):
//   pcg_fused_apply (Alg. 2): u <- u + alpha p; p <- z + beta p; q <- A z + beta q; partial <p, q>
//       (one item per cell). When the solver is finishing (done == 1) it only applies the
//       pending u <- u + alpha p. z_periodic: the tile is the whole horizontally periodic domain and
//       z's ghost ring is not filled; its neighbours are read at their periodic images.
// alpha and beta come from the solver state (solver_scalars).
#pragma once
#include "../column_operator/column_operator.hpp"
#include "../common/fixed_order_sum.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

// The start of a PCG solve in one pass: r = f - A u (u with a valid halo) and p = q = 0 f, the same
// arithmetic as elliptic_apply, vector_update (1 f - 1 r) and two vector_assigns (0 f) one after another.
void pcg_start_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* u, const double* f,
                   double* r, double* p, double* q);
#if defined(TASKDYCORE_HAVE_CUDA)
void pcg_start_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* u, const double* f,
                    double* r, double* p, double* q, cudaStream_t stream);
#endif

// out: 1 compensated sum (2 doubles): <p, q>.
void pcg_fused_apply_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st, double* u,
                         double* p, const double* z, double* q, double* out, bool z_periodic = false);
#if defined(TASKDYCORE_HAVE_CUDA)
void pcg_fused_apply_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                          double* u, double* p, const double* z, double* q, void* groups, double* out,
                          cudaStream_t stream, bool z_periodic = false);
#endif
// Device scratch both kernels need (group partials).
std::size_t pcg_fused_scratch_bytes(const TileLayout& L);

}  // namespace tdc
