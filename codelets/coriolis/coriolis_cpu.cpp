#include "coriolis_kernel.hpp"

namespace tdc {

void coriolis_cpu(const CoriolisArgs& a, const double* un, const double* vn, const double* uo, const double* vo,
                  double* u, double* v) {
  const Box b = ring_box(a.L, a.ring);
  for (int k = 0; k < a.L.nz; ++k)
    for (int j = b.j0; j < b.j1; ++j)
      for (int i = b.i0; i < b.i1; ++i) coriolis_cell(a, un, vn, uo, vo, u, v, i, j, k);
}

}  // namespace tdc
