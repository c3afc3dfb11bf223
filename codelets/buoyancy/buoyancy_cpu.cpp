#include "buoyancy_kernel.hpp"

namespace tdc {

void buoyancy_cpu(const BuoyancyArgs& a, const double* theta, double* w) {
  // Row by row (buoyancy_cell's formula): a plain loop along x, which vectorises.
  for (int k = 0; k < a.L.nz; ++k)
    for (int j = 0; j < a.L.ny; ++j) {
      const std::ptrdiff_t o = a.L.at(0, j, k);
      const double* t = theta + o;
      double* r = w + o;
      for (int i = 0; i < a.L.nx; ++i) r[i] = r[i] + a.factor * t[i];
    }
}

}  // namespace tdc
