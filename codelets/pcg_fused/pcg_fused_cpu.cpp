#include <algorithm>
#include <cmath>
#include <vector>

#include "../solver_scalars/solver_state.hpp"
#include "../vector_update/vector_update_kernel.hpp"
#include "pcg_fused_kernel.hpp"

namespace tdc {

std::size_t pcg_fused_scratch_bytes(const TileLayout& L) {
  return std::size_t(sum_groups(cell_items(L)) * sizeof(Sums<1>));
}

void pcg_start_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* u, const double* f,
                   double* r, double* p, double* q) {
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const std::ptrdiff_t o = L.at(i, j, k);
        r[o] = axpby(1.0, f[o], -1.0, apply_cell(L, h, coef, u, i, j, k));
        p[o] = q[o] = axpby(0.0, f[o], 0.0, 0.0);
      }
}

void pcg_fused_apply_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st, double* u,
                         double* p, const double* z, double* q, double* out, bool z_periodic) {
  if (solver_skips(st, 2)) return;
  const double alpha = st[state::kAlpha], beta = st[state::kBeta];
  const bool finishing = st[state::kDone] >= 1.0;
  ItemReducer<1> red;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j) {
      const std::ptrdiff_t o = L.at(0, j, k);
      if (finishing) {
        for (int i = 0; i < L.nx; ++i) u[o + i] = u[o + i] + alpha * p[o + i];
        continue;
      }
      for (int i = 0; i < L.nx; ++i) {
        u[o + i] = u[o + i] + alpha * p[o + i];
        const double ps = z[o + i] + beta * p[o + i];
        p[o + i] = ps;
        const double az = z_periodic ? apply_cell_from(L, h, coef, i, j, k, PeriodicAt(L, z, i, j, k))
                                     : apply_cell(L, h, coef, z, i, j, k);
        const double qs = az + beta * q[o + i];
        q[o + i] = qs;
        Sums<1> s{};
        s.v[0] = dd_add(s.v[0], ps * qs);
        red.push(s);
      }
    }
  red.finish(out);
}

}  // namespace tdc
