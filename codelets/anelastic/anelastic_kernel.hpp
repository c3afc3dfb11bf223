// The anelastic constraint D(rho_0 v) = 0 (Lipps-Hemler, paper 000 §2) with the reference density
// rho_k of the kEnvDensity profile (codelets/stratification): mass_courant weights the advector's face
// Courant numbers by the density on the face (rho_k on x and y faces, the mean of the two levels on
// z faces), so that MPDATA advects with the mass flux (G = rho_0); mass_divergence is f = s D(rho_0 v)
// with the centred divergence, rho_0 mirrored (even) and w odd about rigid lids. Its operator on the
// centred gradient is graph/collocated_laplacian's density-weighted laplc. mass_courant weights the
// faces the advector made (advector_box: the interior and most of the ghost ring).
#pragma once
#include "../advector/advector_kernel.hpp"
#include "../common/tile_layout.hpp"
#include "../pressure_gradient/pressure_gradient_kernel.hpp"
#include "../stratification/stratification_kernel.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

struct MassCourantArgs {
  TileLayout L;
  int ring = 0;  // the advector's (advector_box)
};

TDC_HD void mass_courant_cell(const MassCourantArgs& a, const double* e, double* c1, double* c2, double* c3, int i,
                              int j, int k) {
  const TileLayout& L = a.L;
  const std::ptrdiff_t o = L.at(i, j, k);
  const double rho = env(e, kEnvDensity, L.nz, k);
  const double face = k > 0 ? 0.5 * (env(e, kEnvDensity, L.nz, k - 1) + rho) : rho;  // (the lid's face carries 0)
  c1[o] = rho * c1[o];
  c2[o] = rho * c2[o];
  c3[o] = face * c3[o];
}

TDC_HD double mass_divergence_cell(const CentredArgs& a, const double* e, const double* u, const double* v,
                                   const double* w, int i, int j, int k) {
  const TileLayout& L = a.L;
  const std::ptrdiff_t o = L.at(i, j, k);
  const double rho = env(e, kEnvDensity, L.nz, k);
  const double up = env(e, kEnvDensity, L.nz, k_above(k, L.nz, a.zb)),
               down = env(e, kEnvDensity, L.nz, k_below(k, L.nz, a.zb));
  return (a.gx * (rho * u[o + 1] - rho * u[o - 1]) + a.gy * (rho * v[o + L.sx()] - rho * v[o - L.sx()])) +
         a.gz * (up * odd_above(a, w, i, j, k) - down * odd_below(a, w, i, j, k));
}

void mass_courant_cpu(const MassCourantArgs& a, const double* e, double* c1, double* c2, double* c3);
void mass_divergence_cpu(const CentredArgs& a, const double* e, const double* u, const double* v, const double* w,
                         double* f);
#if defined(TASKDYCORE_HAVE_CUDA)
void mass_courant_cuda(const MassCourantArgs& a, const double* e, double* c1, double* c2, double* c3, cudaStream_t s);
void mass_divergence_cuda(const CentredArgs& a, const double* e, const double* u, const double* v, const double* w,
                          double* f, cudaStream_t s);
#endif

}  // namespace tdc
