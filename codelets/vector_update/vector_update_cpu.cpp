#include "../solver_scalars/solver_state.hpp"
#include "vector_update_kernel.hpp"

namespace tdc {

void vector_update_cpu(const VectorUpdateArgs& u, const double* st, const double* x, double* y) {
  if (solver_skips(st, u.skip_from)) return;
  const TileLayout& L = u.L;
  const double a = scalar_of(st, u.ia, u.sa), b = scalar_of(st, u.ib, u.sb);
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j) {
      const std::ptrdiff_t o = L.at(0, j, k);
      for (int i = 0; i < L.nx; ++i) y[o + i] = axpby(a, x[o + i], b, y[o + i]);
    }
}

}  // namespace tdc
