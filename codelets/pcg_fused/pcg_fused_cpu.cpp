#include <algorithm>
#include <cmath>
#include <vector>

#include "../column_operator/column_rows.hpp"
#include "../common/fixed_order_rows.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "../vector_update/vector_update_kernel.hpp"
#include "pcg_fused_kernel.hpp"

namespace tdc {

std::size_t pcg_fused_scratch_bytes(const TileLayout& L) {
  return std::size_t(sum_groups(cell_items(L)) * sizeof(Sums<1>));
}

// Row by row (the inner loops along x vectorise): per value the operations of the cell form the CUDA
// kernels run (apply_cell's formula through apply_row_segment), the items one per cell in the same
// order through RowItemReducer: the same bits.
void pcg_start_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* u, const double* f,
                   double* r, double* p, double* q) {
  const int nx = L.nx;
  std::vector<double> au(nx);
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j) {
      const std::ptrdiff_t o = L.at(0, j, k);
      apply_row_segment(L, h, coef, u, j, k, 0, nx, false, au.data());
      const double* __restrict a = au.data();
      const double* __restrict fo = f + o;
      double* __restrict ro = r + o;
      double* __restrict po = p + o;
      double* __restrict qo = q + o;
      for (int i = 0; i < nx; ++i) {
        ro[i] = axpby(1.0, fo[i], -1.0, a[i]);
        po[i] = qo[i] = axpby(0.0, fo[i], 0.0, 0.0);
      }
    }
}

void pcg_fused_apply_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st, double* u,
                         double* p, const double* z, double* q, double* out, bool z_periodic) {
  if (solver_skips(st, 2)) return;
  const double alpha = st[state::kAlpha], beta = st[state::kBeta];
  const bool finishing = st[state::kDone] >= 1.0;
  const int nx = L.nx;
  RowItemReducer<1> red;
  std::vector<double> az(nx), pq(nx);
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j) {
      const std::ptrdiff_t o = L.at(0, j, k);
      double* __restrict uo = u + o;
      double* __restrict po = p + o;
      if (finishing) {
        for (int i = 0; i < nx; ++i) uo[i] = uo[i] + alpha * po[i];
        continue;
      }
      apply_row_segment(L, h, coef, z, j, k, 0, nx, z_periodic, az.data());
      const double* __restrict a = az.data();
      const double* __restrict zo = z + o;
      double* __restrict qo = q + o;
      double* __restrict prod = pq.data();
      for (int i = 0; i < nx; ++i) {
        uo[i] = uo[i] + alpha * po[i];
        const double ps = zo[i] + beta * po[i];
        po[i] = ps;
        const double qs = a[i] + beta * qo[i];
        qo[i] = qs;
        prod[i] = ps * qs;
      }
      red.push_values({pq.data()}, nx);
    }
  red.finish(out);
}

}  // namespace tdc
