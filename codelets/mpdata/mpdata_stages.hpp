// MPDATA stage kernels over a box of columns: plain CPU loops and CUDA kernels with identical
// arithmetic (both call mpdata_formulae.hpp). No StarPU here.
#pragma once
#include "mpdata_formulae.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {
namespace mpdata {

// What the staged kernels need to know of a tile: its layout and the vertical boundary rule.
struct Cells {
  TileLayout L;
  ZBoundary zb;
  TDC_HD Lids lids(int k) const { return level_lids(k, L.nz, zb); }
  TDC_HD Planes at(const double* p, int k) const { return level_planes(p, L, k, zb); }
};

// G level by level, for kernels instantiated on how G is held: a tile array, or UnitDensity when
// the array passed is null (G = 1, not read). with_density calls f with the one that applies.
struct DensityArray {
  const double* g;
  TDC_HD Planes at(const Cells& s, int k) const { return s.at(g, k); }
};
struct DensityOne {
  TDC_HD UnitDensity at(const Cells&, int) const { return {}; }
};
template <class F>
void with_density(const double* g, F&& f) {
  if (g)
    f(DensityArray{g});
  else
    f(DensityOne{});
}

// g: G at cell centres, or null where G = 1 (Options::unit_density).
// out = psi - div(F(psi, c))/G on the cells of `box` (linear fluxes when `linear`).
void upwind_cpu(const Cells& s, Box box, const double* psi, const double* c1, const double* c2, const double* c3,
                const double* g, double* out, bool linear);
// v1..v3 = antidiffusive velocities on the lower faces of the cells of `box`.
void antidiffusive_cpu(const Cells& s, const Options& o, Box box, const double* psi, const double* c1, const double* c2,
                       const double* c3, const double* g, double* v1, double* v2, double* v3);
// up/down = the limiter's factors on the cells of `box`.
void fct_beta_cpu(const Cells& s, const Options& o, Box box, const double* psi0, const double* psi1, const double* psi,
                  const double* v1, const double* v2, const double* v3, const double* g, double* up, double* down);
// Limits v1..v3 in place on the lower faces of the cells of `box`.
void fct_limit_cpu(const Cells& s, Box box, const double* up, const double* down, double* v1, double* v2, double* v3);

// The last FCT pass: out = upwind with v1..v3 limited on the fly by up/down (no limited velocities stored).
void limited_upwind_cpu(const Cells& s, Box box, const double* psi, const double* v1, const double* v2,
                        const double* v3, const double* up, const double* down, const double* g, double* out,
                        bool linear);

#if defined(TASKDYCORE_HAVE_CUDA)
void limited_upwind_cuda(const Cells& s, Box box, const double* psi, const double* v1, const double* v2,
                         const double* v3, const double* up, const double* down, const double* g, double* out,
                         bool linear, cudaStream_t st);
void upwind_cuda(const Cells& s, Box box, const double* psi, const double* c1, const double* c2, const double* c3,
                 const double* g, double* out, bool linear, cudaStream_t st);
void antidiffusive_cuda(const Cells& s, const Options& o, Box box, const double* psi, const double* c1,
                        const double* c2, const double* c3, const double* g, double* v1, double* v2, double* v3,
                        cudaStream_t st);
void fct_beta_cuda(const Cells& s, const Options& o, Box box, const double* psi0, const double* psi1, const double* psi,
                   const double* v1, const double* v2, const double* v3, const double* g, double* up, double* down,
                   cudaStream_t st);
void fct_limit_cuda(const Cells& s, Box box, const double* up, const double* down, double* v1, double* v2, double* v3,
                    cudaStream_t st);
#endif

}  // namespace mpdata
}  // namespace tdc
