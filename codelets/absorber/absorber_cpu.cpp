#include "absorber_kernel.hpp"

namespace tdc {

void absorber_cpu(const AbsorberArgs& a, const double* e, const double* src, double* dst) {
  for (int k = 0; k < a.L.nz; ++k)
    for (int j = 0; j < a.L.ny; ++j)
      for (int i = 0; i < a.L.nx; ++i) absorber_cell(a, e, src, dst, i, j, k);
}

}  // namespace tdc
