// tile_moments: per-tile partial sums of a field psi weighted by G (mass  sum G psi, and
// sum G psi^2), with its minimum and maximum, in compensated arithmetic and a fixed order that the CPU
// and CUDA kernels share bit for bit: each column summed bottom to top, columns combined by a
// pairwise tree within groups of kGroup consecutive columns (x fastest), groups summed in order.
// Tiles' partials are then combined in tile order on the host (graph/reductions).
#pragma once
#include "../common/double_double.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

struct Moments {
  DD mass;     // sum G psi
  DD mass_sq;  // sum G psi^2
  double min, max;
};
constexpr int kMomentsDoubles = 6;  // the layout of a moments handle: mass.hi, mass.lo, sq.hi, sq.lo, min, max
constexpr int kGroup = 256;

inline int moment_groups(const TileLayout& L) { return (L.nx * L.ny + kGroup - 1) / kGroup; }

void tile_moments_cpu(const TileLayout& L, const double* psi, const double* g, double* out);
#if defined(TASKDYCORE_HAVE_CUDA)
// `partials` holds moment_groups(L) * kMomentsDoubles doubles of device scratch.
void tile_moments_cuda(const TileLayout& L, const double* psi, const double* g, double* partials, double* out,
                       cudaStream_t stream);
#endif

Moments moments_from(const double* v);
Moments combine(const Moments& a, const Moments& b);

}  // namespace tdc
