#include "max_courant_kernel.hpp"

namespace tdc {

void max_courant_cpu(const MaxCourantArgs& a, const double* u, const double* v, const double* w, double* out) {
  const TileLayout& L = a.L;
  double m = 0.0;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j) {
      const std::ptrdiff_t row = L.at(0, j, k);
      for (int i = 0; i < L.nx; ++i) {
        const double c = courant_sum(a, u[row + i], v[row + i], w[row + i]);
        m = c > m ? c : m;
      }
    }
  *out = m;
}

}  // namespace tdc
