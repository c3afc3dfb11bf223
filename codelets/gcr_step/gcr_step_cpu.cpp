#include <algorithm>
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
  for (int j = 0; j < L.ny; ++j) {
    std::fill(row.begin(), row.end(), Sums<1>{});
    const std::ptrdiff_t o0 = L.at(0, j, 0);
    for (int k = 0; k < nz; ++k) {
      const std::ptrdiff_t o = o0 + P * k;
      for (int i = 0; i < L.nx; ++i) {
        x[o + i] = x[o + i] + beta * p_last[o + i];
        const double rs = r[o + i] - beta * q_last[o + i];
        r[o + i] = rs;
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
}

void gcr_apply_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                   const double* e, double* ae, const GcrBasis& basis, double* out) {
  if (solver_skips(st, 2)) return;
  ItemReducer<kMaxGcrOld> red;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const std::ptrdiff_t o = L.at(i, j, k);
        const double a = apply_cell(L, h, coef, e, i, j, k);
        ae[o] = a;
        Sums<kMaxGcrOld> s{};
        for (int n = 0; n < basis.m; ++n) s.v[n] = dd_add(s.v[n], a * basis.q[n][o]);
        red.push(s);
      }
  red.finish(out);
}

void gcr_direction_cpu(const TileLayout& L, const double* st, const double* e, const double* r, double* p_new,
                       double* q_new, const GcrBasis& basis, double* out) {
  if (solver_skips(st, 2)) return;
  ItemReducer<2> red;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const std::ptrdiff_t o = L.at(i, j, k);
        double p = e[o], q = q_new[o];
        for (int n = 0; n < basis.m; ++n) {
          const double a = st[state::kGcrAlpha + n];
          p = p + a * basis.p[n][o];
          q = q + a * basis.q[n][o];
        }
        p_new[o] = p;
        q_new[o] = q;
        Sums<2> s{};
        s.v[0] = dd_add(s.v[0], q * q);
        s.v[1] = dd_add(s.v[1], r[o] * q);
        red.push(s);
      }
  red.finish(out);
}

}  // namespace tdc
