#include "viscous_diffusion_kernel.hpp"

namespace tdc {
namespace {

void diffuse(const DiffusionArgs& a, const double* src, double* dst, double parity) {
  for (int k = 0; k < a.L.nz; ++k)
    for (int j = 0; j < a.L.ny; ++j)
      for (int i = 0; i < a.L.nx; ++i) {
        const std::ptrdiff_t o = a.L.at(i, j, k);
        dst[o] = dst[o] + laplacian_term(a, src, i, j, k, parity);
      }
}

}  // namespace

void viscous_diffusion_cpu(const DiffusionArgs& a, const double* const src[3], double* const dst[3]) {
  for (int q = 0; q < 3; ++q) diffuse(a, src[q], dst[q], q == 2 ? -1.0 : 1.0);
}

void scalar_diffusion_cpu(const DiffusionArgs& a, const double* src, double* dst) { diffuse(a, src, dst, 1.0); }

}  // namespace tdc
