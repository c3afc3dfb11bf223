#include "anelastic_kernel.hpp"

namespace tdc {

void mass_courant_cpu(const MassCourantArgs& a, const double* e, double* c1, double* c2, double* c3) {
  for (int k = 0; k < a.L.nz; ++k)
    for (int j = 0; j < a.L.ny; ++j)
      for (int i = 0; i < a.L.nx; ++i) mass_courant_cell(a, e, c1, c2, c3, i, j, k);
}

void mass_divergence_cpu(const CentredArgs& a, const double* e, const double* u, const double* v, const double* w,
                         double* f) {
  for (int k = 0; k < a.L.nz; ++k)
    for (int j = 0; j < a.L.ny; ++j)
      for (int i = 0; i < a.L.nx; ++i) f[a.L.at(i, j, k)] = mass_divergence_cell(a, e, u, v, w, i, j, k);
}

}  // namespace tdc
