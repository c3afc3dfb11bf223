// The coupling of w and theta' through a stably stratified environment theta_e(z), trapezoidal in
// time as in EULAG (paper 000 §2): theta' carries the source -w dtheta_e/dz and w the buoyancy
// b theta' (b = g / theta_0, or g / theta_0(z) level by level: b beta_k, physics.reference = "environment").
// The explicit half adds -dt/2 S w^n to theta'. The implicit half solves
// the pair theta'^(n+1) = theta^ - dt/2 S w^(n+1), w^(n+1) = w^ + dt/2 b theta'^(n+1) - dt/2 dp/dz
// for w^(n+1), per level:
//   w^(n+1) = alpha (w^ + dt/2 b theta^) - alpha dt/2 dp/dz,   alpha = 1 / (1 + (dt/2)^2 b S),
// so the pressure operator becomes D(G_h p, alpha G_z p) (graph/collocated_laplacian) and, once w^(n+1)
// is known, theta'^(n+1) follows by the same source term.
// The per-level profiles live in one vector of kEnvVectors * nz doubles (a read-only StarPU vector).
#pragma once
#include "../common/tile_layout.hpp"
#include "../pressure_gradient/pressure_gradient_kernel.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

enum EnvironmentVector : int {
  kEnvDthetaDz = 0,  // S_k = dtheta_e/dz at level k, K/m
  kEnvAlpha,         // alpha_k = 1 / (1 + (dt/2)^2 b S_k)
  kEnvDamping,       // nu_k, the absorber's Rayleigh damping rate, 1/s (0 below the absorber)
  kEnvDensity,       // rho_k = rho_0(z_k) / rho_0(0), the anelastic reference density (1: Boussinesq)
  kEnvBuoyancy,      // theta_0 / theta_0(z_k): the buoyancy g theta' / theta_0(z) in units of b (1: constant theta_0)
  kEnvVectors
};

TDC_HD double env(const double* e, int vec, int nz, int k) { return e[vec * nz + k]; }

struct ScaledArgs {
  TileLayout L;
  double factor = 0;
  int ring = 0;  // ghost columns computed too (ring_box)
};

// theta' <- theta' + factor S_k w (factor = -dt/2: the advection of theta_e by w).
TDC_HD void environment_source_cell(const ScaledArgs& a, const double* e, const double* w, double* theta, int i, int j,
                                    int k) {
  const std::ptrdiff_t o = a.L.at(i, j, k);
  theta[o] = theta[o] + a.factor * (env(e, kEnvDthetaDz, a.L.nz, k) * w[o]);
}

// w <- alpha_k (w + factor beta_k theta') (factor = dt/2 b: the implicit half of the buoyancy; beta_k =
// kEnvBuoyancy, exactly 1 for a constant theta_0, so that the product is the factor itself).
TDC_HD void implicit_buoyancy_cell(const ScaledArgs& a, const double* e, const double* theta, double* w, int i, int j,
                                   int k) {
  const std::ptrdiff_t o = a.L.at(i, j, k);
  w[o] = env(e, kEnvAlpha, a.L.nz, k) * (w[o] + a.factor * env(e, kEnvBuoyancy, a.L.nz, k) * theta[o]);
}

// w <- w + factor beta_k theta': the explicit half of the buoyancy in a stratified environment (beta_k
// exactly 1 for a constant theta_0: the buoyancy codelet's bits).
TDC_HD void height_buoyancy_cell(const ScaledArgs& a, const double* e, const double* theta, double* w, int i, int j,
                                 int k) {
  const std::ptrdiff_t o = a.L.at(i, j, k);
  w[o] = w[o] + a.factor * env(e, kEnvBuoyancy, a.L.nz, k) * theta[o];
}

// (u, v, w) <- (u, v, w) - (Gx p, Gy p, alpha_k Gz p): the velocity correction of the stratified step.
TDC_HD void stratified_gradient_cell(const CentredArgs& a, const double* e, const double* p, double* u, double* v,
                                     double* w, int i, int j, int k) {
  const TileLayout& L = a.L;
  const std::ptrdiff_t o = L.at(i, j, k);
  u[o] = u[o] - a.gx * (p[o + 1] - p[o - 1]);
  v[o] = v[o] - a.gy * (p[o + L.sx()] - p[o - L.sx()]);
  w[o] = w[o] - env(e, kEnvAlpha, L.nz, k) *
                    (a.gz * (p[L.at(i, j, k_above(k, L.nz, a.zb))] - p[L.at(i, j, k_below(k, L.nz, a.zb))]));
}

void environment_source_cpu(const ScaledArgs& a, const double* e, const double* w, double* theta);
void implicit_buoyancy_cpu(const ScaledArgs& a, const double* e, const double* theta, double* w);
void height_buoyancy_cpu(const ScaledArgs& a, const double* e, const double* theta, double* w);
void stratified_gradient_cpu(const CentredArgs& a, const double* e, const double* p, double* u, double* v, double* w);
#if defined(TASKDYCORE_HAVE_CUDA)
void environment_source_cuda(const ScaledArgs& a, const double* e, const double* w, double* theta, cudaStream_t s);
void implicit_buoyancy_cuda(const ScaledArgs& a, const double* e, const double* theta, double* w, cudaStream_t s);
void height_buoyancy_cuda(const ScaledArgs& a, const double* e, const double* theta, double* w, cudaStream_t s);
void stratified_gradient_cuda(const CentredArgs& a, const double* e, const double* p, double* u, double* v, double* w,
                              cudaStream_t s);
#endif

}  // namespace tdc
