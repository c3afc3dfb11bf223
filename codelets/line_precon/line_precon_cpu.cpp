#include "../solver_scalars/solver_state.hpp"
#include "line_precon_kernel.hpp"

namespace tdc {

void line_precon_cpu(const TileLayout& L, const double* coef, const double* st, int skip_from, int s, const double* r,
                     double* z) {
  if (solver_skips(st, skip_from)) return;
  const int nz = L.nz;
  const std::ptrdiff_t P = L.plane(), S = s * P;
  // Row by row, all columns of a row at once (the inner loop runs along x, contiguous in memory).
  for (int j = 0; j < L.ny; ++j) {
    const std::ptrdiff_t row = L.at(0, j, 0);
    for (int k = 0; k < nz; ++k) {
      const std::ptrdiff_t o = row + P * k;
      for (int i = 0; i < L.nx; ++i) z[o + i] = thomas_forward(coef, nz, k, r[o + i], k >= s ? z[o - S + i] : 0.0);
    }
    for (int k = nz - 1; k >= 0; --k) {
      const std::ptrdiff_t o = row + P * k;
      for (int i = 0; i < L.nx; ++i) z[o + i] = thomas_backward(coef, nz, k, z[o + i], k + s < nz ? z[o + S + i] : 0.0);
    }
  }
}

}  // namespace tdc
