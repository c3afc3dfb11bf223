#include <algorithm>
#include <vector>

#include "../column_operator/column_rows.hpp"
#include "../vector_update/vector_update_kernel.hpp"
#include "residual_max_kernel.hpp"

namespace tdc {

// Row by row: elliptic_apply's A u (apply_row), then f - (A u) in vector_update's formula, as the
// residual codelets compute it.
void elliptic_residual_max_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* u,
                               const double* f, double* out) {
  std::vector<double> au(L.nx);
  double f_max = 0.0, r_max = 0.0;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j) {
      const double* fo = f + L.at(0, j, k);
      apply_row(L, h, coef, u, j, k, au.data());
      for (int i = 0; i < L.nx; ++i) {
        f_max = std::max(f_max, check_magnitude(fo[i]));
        r_max = std::max(r_max, check_magnitude(axpby(1.0, fo[i], -1.0, au[i])));
      }
    }
  out[kResidualMaxF] = f_max;
  out[kResidualMaxR] = r_max;
}

}  // namespace tdc
