#include <vector>

#include "../solver_scalars/solver_state.hpp"
#include "pcg_fused_kernel.hpp"

namespace tdc {

std::size_t pcg_fused_scratch_bytes(const TileLayout& L) {
  const long precon = sum_groups(L.nx * L.ny) * sizeof(Sums<2>);
  const long apply = sum_groups(column_chunks(L.nx * L.ny, L.nz, kLevelChunk).count()) * sizeof(Sums<1>);
  return std::size_t(precon > apply ? precon : apply);
}

void pcg_fused_precon_cpu(const TileLayout& L, const double* coef, const double* st, double* r, const double* q,
                          double* z, double* out) {
  if (solver_skips(st, 1)) return;
  const double alpha = st[state::kAlpha];
  const int nz = L.nz;
  const std::ptrdiff_t P = L.plane();
  std::vector<Sums<2>> items(std::size_t(L.nx) * L.ny);
  for (int j = 0; j < L.ny; ++j) {
    Sums<2>* row = &items[std::size_t(j) * L.nx];
    const std::ptrdiff_t o0 = L.at(0, j, 0);
    for (int k = 0; k < nz; ++k) {
      const std::ptrdiff_t o = o0 + P * k;
      for (int i = 0; i < L.nx; ++i) {
        const double rs = r[o + i] - alpha * q[o + i];
        r[o + i] = rs;
        row[i].v[0] = dd_add(row[i].v[0], rs * rs);
        z[o + i] = thomas_forward(coef, nz, k, rs, k > 0 ? z[o - P + i] : 0.0);
      }
    }
    const std::ptrdiff_t top = o0 + P * (nz - 1);
    for (int i = 0; i < L.nx; ++i) row[i].v[1] = dd_add(row[i].v[1], z[top + i] * r[top + i]);
    for (int k = nz - 2; k >= 0; --k) {
      const std::ptrdiff_t o = o0 + P * k;
      for (int i = 0; i < L.nx; ++i) {
        const double zs = thomas_backward(coef, nz, k, z[o + i], z[o + P + i]);
        z[o + i] = zs;
        row[i].v[1] = dd_add(row[i].v[1], zs * r[o + i]);
      }
    }
  }
  reduce_items_cpu(items.data(), long(items.size()), out);
}

void pcg_fused_apply_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                         double* u, double* p, const double* z, double* q, double* out) {
  if (solver_skips(st, 2)) return;
  const double alpha = st[state::kAlpha], beta = st[state::kBeta];
  const bool finishing = st[state::kDone] >= 1.0;
  const ColumnChunks cc = column_chunks(L.nx * L.ny, L.nz, kLevelChunk);
  std::vector<Sums<1>> items(cc.count());
  for (int c = 0; c < cc.chunks; ++c) {
    const int k1 = (c + 1) * cc.levels < L.nz ? (c + 1) * cc.levels : L.nz;
    for (int j = 0; j < L.ny; ++j) {
      Sums<1>* row = &items[long(c) * cc.columns + long(j) * L.nx];
      for (int k = c * cc.levels; k < k1; ++k) {
        const std::ptrdiff_t o = L.at(0, j, k);
        if (finishing) {
          for (int i = 0; i < L.nx; ++i) u[o + i] = u[o + i] + alpha * p[o + i];
          continue;
        }
        for (int i = 0; i < L.nx; ++i) {
          u[o + i] = u[o + i] + alpha * p[o + i];
          const double ps = z[o + i] + beta * p[o + i];
          p[o + i] = ps;
          const double qs = apply_cell(L, h, coef, z, i, j, k) + beta * q[o + i];
          q[o + i] = qs;
          row[i].v[0] = dd_add(row[i].v[0], ps * qs);
        }
      }
    }
  }
  reduce_items_cpu(items.data(), cc.count(), out);
}

}  // namespace tdc
