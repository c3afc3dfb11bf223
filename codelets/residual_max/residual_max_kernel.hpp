// residual_max: the direct solve's check of a tile, max |f| and max |f - A u| (u with a valid halo),
// with no residual stored and no sums: one read of u and f. Maxima are exact in any order, so the
// check is as reproducible as the solve. A NaN or an infinity counts as +inf, so a broken solve
// fails the check.
#pragma once
#include "../column_operator/column_operator.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

// Where the maxima go in the tile's partial (solver_scalars' Direct op reads them there).
constexpr int kResidualMaxF = 0, kResidualMaxR = 1;

TDC_HD double check_magnitude(double v) {
  const double a = v < 0.0 ? -v : 0.0 + v;  // 0.0 + v: +0 for -0 (whose bits would outrank every value)
  return a <= 1.7976931348623157e308 ? a : __builtin_huge_val();
}

void elliptic_residual_max_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* u,
                               const double* f, double* out);
#if defined(TASKDYCORE_HAVE_CUDA)
void elliptic_residual_max_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* u,
                                const double* f, double* out, cudaStream_t stream);
#endif

}  // namespace tdc
