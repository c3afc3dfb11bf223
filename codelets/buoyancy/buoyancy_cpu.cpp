#include "buoyancy_kernel.hpp"

namespace tdc {

void buoyancy_cpu(const BuoyancyArgs& a, const double* theta, double* w) {
  // Row by row (for_each_row), buoyancy_cell's formula.
  const Box b = ring_box(a.L, a.ring);
  for_each_row(a.L, b, [&](std::ptrdiff_t o, int) {
    const double* t = theta + o;
    double* r = w + o;
    for (int i = 0; i < b.width(); ++i) r[i] = r[i] + a.factor * t[i];
  });
}

}  // namespace tdc
