#include "elliptic_apply_kernel.hpp"
#include "../solver_scalars/solver_state.hpp"

namespace tdc {

void elliptic_apply_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                        int skip_from, const double* x, double* y) {
  if (solver_skips(st, skip_from)) return;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) y[L.at(i, j, k)] = apply_cell(L, h, coef, x, i, j, k);
}

}  // namespace tdc
