#include <algorithm>
#include <cmath>
#include <vector>

#include "gcr_step_kernel.hpp"

namespace tdc {

std::size_t gcr_scratch_bytes(const TileLayout& L) {
  return std::size_t(sum_groups(cell_items(L))) * sizeof(Sums<kMaxGcrOld>);
}

void gcr_precon_cpu(const TileLayout& L, const double* coef, const double* st, int s, double* x, double* r,
                    const double* p_last, const double* q_last, double* e, double* out) {
  if (solver_skips(st, 2)) return;
  const double beta = st[state::kBeta];
  const int nz = L.nz;
  const std::ptrdiff_t P = L.plane();
  ItemReducer<1> red;
  std::vector<Sums<1>> row(L.nx);
  double r_max = 0.0;
  for (int j = 0; j < L.ny; ++j) {
    std::fill(row.begin(), row.end(), Sums<1>{});
    const std::ptrdiff_t o0 = L.at(0, j, 0);
    for (int k = 0; k < nz; ++k) {
      const std::ptrdiff_t o = o0 + P * k;
      for (int i = 0; i < L.nx; ++i) {
        x[o + i] = x[o + i] + beta * p_last[o + i];
        const double rs = r[o + i] - beta * q_last[o + i];
        r[o + i] = rs;
        r_max = std::max(r_max, std::fabs(rs));
        row[i].v[0] = dd_add(row[i].v[0], rs * rs);
        e[o + i] = thomas_forward(coef, nz, k, rs, k >= s ? e[o - s * P + i] : 0.0);
      }
    }
    for (int k = nz - 1; k >= 0; --k) {
      const std::ptrdiff_t o = o0 + P * k;
      for (int i = 0; i < L.nx; ++i)
        e[o + i] = thomas_backward(coef, nz, k, e[o + i], k + s < nz ? e[o + s * P + i] : 0.0);
    }
    for (int i = 0; i < L.nx; ++i) red.push(row[i]);
  }
  red.finish(out);
  out[kMaxAbsAt] = r_max;
  out[kMaxAbsAt + 1] = 0.0;
}

void gcr_apply_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st, const double* e,
                   double* ae, const GcrBasis& basis, double* out) {
  if (solver_skips(st, 2)) return;
  ItemReducer<kMaxGcrOld> red;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) red.push(gcr_apply_cell(L, h, coef, e, ae, basis, i, j, k));
  red.finish(out);
}

void gcr_direction_cpu(const TileLayout& L, const double* st, const double* e, const double* r, double* p_new,
                       double* q_new, const GcrBasis& basis, double* out) {
  if (solver_skips(st, 2)) return;
  ItemReducer<2> red;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) red.push(gcr_direction_cell(L, st, e, r, p_new, q_new, basis, i, j, k));
  red.finish(out);
}

}  // namespace tdc
