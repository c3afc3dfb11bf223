// The plain max_courant kernels (no StarPU here): the largest Courant sum
// dt (|u|/dx + |v|/dy + |w|/dz) over a tile's interior cells, the number the diagnostics call
// max_courant. A value that is not finite counts as +infinity, so that a NaN anywhere survives the
// maximum (fmax drops NaNs) and the check sees it.
#pragma once
#include <cstddef>

#include "../common/tile_layout.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

struct MaxCourantArgs {
  TileLayout L;
  double cx = 0, cy = 0, cz = 0;  // dt/dx, dt/dy, dt/dz
};

TDC_HD double courant_sum(const MaxCourantArgs& a, double u, double v, double w) {
  const double c = a.cx * (u < 0.0 ? -u : u) + a.cy * (v < 0.0 ? -v : v) + a.cz * (w < 0.0 ? -w : w);
  return c <= 1.7976931348623157e308 ? c : __builtin_huge_val();  // NaN and inf: +inf
}

void max_courant_cpu(const MaxCourantArgs& a, const double* u, const double* v, const double* w, double* out);
#if defined(TASKDYCORE_HAVE_CUDA)
void max_courant_cuda(const MaxCourantArgs& a, const double* u, const double* v, const double* w, double* out,
                      cudaStream_t stream);
#endif

}  // namespace tdc
