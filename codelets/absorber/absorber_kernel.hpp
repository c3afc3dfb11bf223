// absorber: Rayleigh damping towards the environment in a layer below the lid, so that waves leave
// the domain instead of reflecting: psi~ <- psi~ - dt nu_k (psi^n - psi_e), explicit and first order
// like the diffusion terms (stable for nu dt <= 1, which the configuration checks). u and v relax to
// the environment's wind, w and theta' to 0. nu_k is the kEnvDamping profile (stratification_kernel).
#pragma once
#include "../common/tile_layout.hpp"
#include "../stratification/stratification_kernel.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

struct AbsorberArgs {
  TileLayout L;
  double dt = 0;
  double target = 0;  // psi_e
  int ring = 0;  // ghost columns computed too (ring_box)
};

// dst <- dst - dt nu_k (src - target); src may be dst (theta', damped in place).
TDC_HD void absorber_cell(const AbsorberArgs& a, const double* e, const double* src, double* dst, int i, int j, int k) {
  const std::ptrdiff_t o = a.L.at(i, j, k);
  dst[o] = dst[o] - a.dt * env(e, kEnvDamping, a.L.nz, k) * (src[o] - a.target);
}

void absorber_cpu(const AbsorberArgs& a, const double* e, const double* src, double* dst);
#if defined(TASKDYCORE_HAVE_CUDA)
void absorber_cuda(const AbsorberArgs& a, const double* e, const double* src, double* dst, cudaStream_t s);
#endif

}  // namespace tdc
