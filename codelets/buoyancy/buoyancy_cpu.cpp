#include "buoyancy_kernel.hpp"

namespace tdc {

void buoyancy_cpu(const BuoyancyArgs& a, const double* theta, double* w) {
  for (int k = 0; k < a.L.nz; ++k)
    for (int j = 0; j < a.L.ny; ++j)
      for (int i = 0; i < a.L.nx; ++i) buoyancy_cell(a, theta, w, i, j, k);
}

}  // namespace tdc
