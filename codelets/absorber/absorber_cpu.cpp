#include "absorber_kernel.hpp"

namespace tdc {

void absorber_cpu(const AbsorberArgs& a, const double* e, const double* src, double* dst) {
  const Box b = ring_box(a.L, a.ring);
  for (int k = 0; k < a.L.nz; ++k)
    for (int j = b.j0; j < b.j1; ++j)
      for (int i = b.i0; i < b.i1; ++i) absorber_cell(a, e, src, dst, i, j, k);
}

}  // namespace tdc
