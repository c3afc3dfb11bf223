#include "coriolis_kernel.hpp"

namespace tdc {

void coriolis_cpu(const CoriolisArgs& a, const double* un, const double* vn, const double* uo, const double* vo,
                  double* u, double* v) {
  for (int k = 0; k < a.L.nz; ++k)
    for (int j = 0; j < a.L.ny; ++j)
      for (int i = 0; i < a.L.nx; ++i) coriolis_cell(a, un, vn, uo, vo, u, v, i, j, k);
}

}  // namespace tdc
