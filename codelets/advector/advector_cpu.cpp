#include "advector_kernel.hpp"

namespace tdc {

void advector_cpu(const AdvectorArgs& a, const VelocityPointers& p, double* c1, double* c2, double* c3) {
  for (int k = 0; k < a.L.nz; ++k)
    for (int j = 0; j < a.L.ny; ++j)
      for (int i = 0; i < a.L.nx; ++i) advector_cell(a, p, c1, c2, c3, i, j, k);
}

}  // namespace tdc
