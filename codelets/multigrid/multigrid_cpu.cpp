#include "../solver_scalars/solver_state.hpp"
#include "multigrid_kernel.hpp"

namespace tdc {

void mg_restrict_residual_cpu(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* coef,
                              const double* st, int skip_from, const double* r, const double* z, double* rc) {
  if (solver_skips(st, skip_from)) return;
  for (int K = 0; K < C.nz; ++K)
    for (int J = 0; J < C.ny; ++J)
      for (int I = 0; I < C.nx; ++I) rc[C.at(I, J, K)] = restrict_residual_cell(F, h, coef, r, z, I, J, K);
}

void mg_prolong_add_cpu(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* st,
                        int skip_from, const double* zc, double* z) {
  if (solver_skips(st, skip_from)) return;
  for (int k = 0; k < F.nz; ++k)
    for (int j = 0; j < F.ny; ++j) {
      const std::ptrdiff_t row = C.at(0, coarse_of_fine(j, h.h), coarse_of_fine(k, h.s));
      for (int i = 0; i < F.nx; ++i) z[F.at(i, j, k)] += zc[row + coarse_of_fine(i, h.h)];
    }
}

void mg_jacobi_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st, int skip_from,
                   double omega, bool first, const double* r, const double* z_in, double* z_out) {
  if (solver_skips(st, skip_from)) return;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const std::ptrdiff_t o = L.at(i, j, k);
        z_out[o] = first ? jacobi_first(coef, L.nz, k, omega, r[o]) : jacobi_cell(L, h, coef, omega, r, z_in, i, j, k);
      }
}

}  // namespace tdc
