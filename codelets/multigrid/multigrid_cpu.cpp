// The CPU forms of the V-cycle's kernels, row by row (the inner loops along x vectorise): per value
// the operations of multigrid_kernel.hpp's cell formulae (which the CUDA kernels run), so the same bits.
#include <vector>

#include "../column_operator/column_rows.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "multigrid_kernel.hpp"

namespace tdc {

namespace {

// fine_of_coarse(I, h, b) for I in [0, n), b = 0, 1 (at b n + I): the fine cells a coarse row gathers.
std::vector<int> fine_indices(int n, int h) {
  std::vector<int> f(2 * std::size_t(n));
  for (int b = 0; b < 2; ++b)
    for (int I = 0; I < n; ++I) f[std::size_t(b) * n + I] = fine_of_coarse(I, h, b);
  return f;
}

}  // namespace

// restrict_residual_cell row by row: the fine residual r - A z of the 4 fine rows (b_z, b_y) a coarse
// row merges, then each coarse cell's sum over them in restrict_residual_from's order (b_z, b_y, b_x).
void mg_restrict_residual_cpu(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* coef,
                              const double* st, int skip_from, const double* r, const double* z, double* rc) {
  if (solver_skips(st, skip_from)) return;
  const int nx = F.nx, cnx = C.nx;
  const std::vector<int> fi = fine_indices(cnx, h.h);
  std::vector<double> res(4 * std::size_t(nx));
  for (int K = 0; K < C.nz; ++K)
    for (int J = 0; J < C.ny; ++J) {
      for (int bz = 0; bz < 2; ++bz)
        for (int by = 0; by < 2; ++by) {
          const int j = fine_of_coarse(J, h.h, by), k = fine_of_coarse(K, h.s, bz);
          double* __restrict t = res.data() + std::size_t(2 * bz + by) * nx;
          apply_row(F, h, coef, z, j, k, t);
          const double* __restrict ro = r + F.at(0, j, k);
          for (int i = 0; i < nx; ++i) t[i] = ro[i] - t[i];
        }
      double* __restrict out = rc + C.at(0, J, K);
      const int* __restrict f0 = fi.data();
      const int* __restrict f1 = fi.data() + cnx;
      const double* __restrict t = res.data();
      for (int I = 0; I < cnx; ++I) {
        double sum = 0.0;
        for (int b = 0; b < 4; ++b) {
          sum += t[std::size_t(b) * nx + f0[I]];
          sum += t[std::size_t(b) * nx + f1[I]];
        }
        out[I] = 0.125 * sum;
      }
    }
}

void mg_prolong_add_cpu(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* st,
                        int skip_from, const double* zc, double* z) {
  if (solver_skips(st, skip_from)) return;
  std::vector<int> ci(F.nx);
  for (int i = 0; i < F.nx; ++i) ci[i] = coarse_of_fine(i, h.h);
  for (int k = 0; k < F.nz; ++k)
    for (int j = 0; j < F.ny; ++j) {
      const double* __restrict row = zc + C.at(0, coarse_of_fine(j, h.h), coarse_of_fine(k, h.s));
      double* __restrict zo = z + F.at(0, j, k);
      const int* __restrict c = ci.data();
      for (int i = 0; i < F.nx; ++i) zo[i] += row[c[i]];
    }
}

// jacobi_first and jacobi_cell row by row (A z_in through apply_row, then z + w (r - A z)).
void mg_jacobi_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st, int skip_from,
                   double omega, bool first, const double* r, const double* z_in, double* z_out) {
  if (solver_skips(st, skip_from)) return;
  const int nx = L.nx;
  std::vector<double> az(first ? 0 : nx);
  for (int k = 0; k < L.nz; ++k) {
    const double w = jacobi_weight(coef, L.nz, k, omega);
    for (int j = 0; j < L.ny; ++j) {
      const std::ptrdiff_t o = L.at(0, j, k);
      const double* __restrict ro = r + o;
      double* __restrict zo = z_out + o;
      if (first) {
        for (int i = 0; i < nx; ++i) zo[i] = w * ro[i];
        continue;
      }
      double* __restrict a = az.data();
      apply_row(L, h, coef, z_in, j, k, a);
      const double* __restrict zi = z_in + o;
      for (int i = 0; i < nx; ++i) zo[i] = zi[i] + w * (ro[i] - a[i]);
    }
  }
}

}  // namespace tdc
