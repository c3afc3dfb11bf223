#include "pressure_gradient_kernel.hpp"

namespace tdc {

void pressure_gradient_from_cpu(const CentredArgs& a, const double* p, const double* const v0[3], double* const v[3]) {
  for (int k = 0; k < a.L.nz; ++k)
    for (int j = 0; j < a.L.ny; ++j)
      for (int i = 0; i < a.L.nx; ++i) pressure_gradient_cell(a, p, v0[0], v0[1], v0[2], v[0], v[1], v[2], i, j, k);
}

void pressure_gradient_cpu(const CentredArgs& a, const double* p, double* u, double* v, double* w) {
  double* const vel[3] = {u, v, w};
  pressure_gradient_from_cpu(a, p, vel, vel);
}

void divergence_cpu(const CentredArgs& a, const double* u, const double* v, const double* w, double* f) {
  for (int k = 0; k < a.L.nz; ++k)
    for (int j = 0; j < a.L.ny; ++j)
      for (int i = 0; i < a.L.nx; ++i) f[a.L.at(i, j, k)] = divergence_cell(a, u, v, w, i, j, k);
}

}  // namespace tdc
