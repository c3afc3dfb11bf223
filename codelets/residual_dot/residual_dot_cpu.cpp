#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "../column_operator/column_rows.hpp"
#include "../common/fixed_order_rows.hpp"
#include "../dot_partial/dot_partial_kernel.hpp"
#include "../elliptic_apply/elliptic_apply_kernel.hpp"
#include "../vector_update/vector_update_kernel.hpp"
#include "residual_dot_kernel.hpp"

namespace tdc {

// The CPU runs the separate loops: the same arithmetic in the same order as the fused CUDA pass.
void residual_update_dot_cpu(const TileLayout& L, const double* st, int skip_from, int scalar, const double* q,
                             double* r, double* out) {
  vector_update_cpu(VectorUpdateArgs{L, skip_from, scalar, -1, -1.0, 1.0}, st, q, r);
  dot_partial_cpu(L, st, skip_from, r, r, r, out);
}

// One pass, row by row: elliptic_apply's A u (apply_row: apply_cell's formula), vector_update's
// f - (A u) (axpby with a = 1, b = -1), dot_partial's products, items and trees.
void elliptic_residual_dot_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                               int skip_from, const double* u, const double* f, double* r, double* out) {
  if (solver_skips(st, skip_from)) return;
  const int nx = L.nx;
  const double a = 1.0, b = -1.0;  // VectorUpdateArgs{L, skip_from, -1, -1, 1.0, -1.0}
  auto red = std::make_unique<ChunkedRowReducer<2>>();
  std::vector<double> rr(nx), col_max(nx, 0.0);
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j) {
      const std::ptrdiff_t o = L.at(0, j, k);
      double* __restrict ro = r + o;
      const double* __restrict fo = f + o;
      double* __restrict p = rr.data();
      double* __restrict m = col_max.data();
      apply_row(L, h, coef, u, j, k, ro);
      for (int i = 0; i < nx; ++i) {
        const double v = axpby(a, fo[i], b, ro[i]);
        ro[i] = v;
        m[i] = std::max(m[i], std::fabs(v));
        p[i] = v * v;
      }
      red->push_values({rr.data(), rr.data()}, nx);
    }
  red->finish(out);
  double r_max = 0.0;
  for (int i = 0; i < nx; ++i) r_max = std::max(r_max, col_max[i]);
  out[kMaxAbsAt] = r_max;
  out[kMaxAbsAt + 1] = 0.0;
}

}  // namespace tdc
