#include "buoyancy_kernel.hpp"

namespace tdc {

void buoyancy_cpu(const BuoyancyArgs& a, const double* theta, double* w) {
  // Row by row (for_each_row), buoyancy_cell's formula.
  for_each_row(a.L, [&](std::ptrdiff_t o, int) {
    const double* t = theta + o;
    double* r = w + o;
    for (int i = 0; i < a.L.nx; ++i) r[i] = r[i] + a.factor * t[i];
  });
}

}  // namespace tdc
