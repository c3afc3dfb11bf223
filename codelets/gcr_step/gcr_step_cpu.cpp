#include <vector>

#include "gcr_step_kernel.hpp"

namespace tdc {

std::size_t gcr_scratch_bytes(const TileLayout& L) {
  return std::size_t(sum_groups(column_chunks(L.nx * L.ny, L.nz, kLevelChunk).count())) * sizeof(Sums<kMaxGcrOld>);
}

void gcr_precon_cpu(const TileLayout& L, const double* coef, const double* st, double* x, double* r,
                    const double* p_last, const double* q_last, double* e, double* out) {
  if (solver_skips(st, 2)) return;
  const double beta = st[state::kBeta];
  const int nz = L.nz;
  const std::ptrdiff_t P = L.plane();
  std::vector<Sums<1>> items(std::size_t(L.nx) * L.ny);
  for (int j = 0; j < L.ny; ++j) {
    Sums<1>* row = &items[std::size_t(j) * L.nx];
    const std::ptrdiff_t o0 = L.at(0, j, 0);
    for (int k = 0; k < nz; ++k) {
      const std::ptrdiff_t o = o0 + P * k;
      for (int i = 0; i < L.nx; ++i) {
        x[o + i] = x[o + i] + beta * p_last[o + i];
        const double rs = r[o + i] - beta * q_last[o + i];
        r[o + i] = rs;
        row[i].v[0] = dd_add(row[i].v[0], rs * rs);
        e[o + i] = thomas_forward(coef, nz, k, rs, k > 0 ? e[o - P + i] : 0.0);
      }
    }
    for (int k = nz - 2; k >= 0; --k) {
      const std::ptrdiff_t o = o0 + P * k;
      for (int i = 0; i < L.nx; ++i) e[o + i] = thomas_backward(coef, nz, k, e[o + i], e[o + P + i]);
    }
  }
  reduce_items_cpu(items.data(), long(items.size()), out);
}

void gcr_apply_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                   const double* e, double* ae, const GcrBasis& basis, double* out) {
  if (solver_skips(st, 2)) return;
  const ColumnChunks cc = column_chunks(L.nx * L.ny, L.nz, kLevelChunk);
  std::vector<Sums<kMaxGcrOld>> items(cc.count());
  for (int c = 0; c < cc.chunks; ++c) {
    const int k1 = (c + 1) * cc.levels < L.nz ? (c + 1) * cc.levels : L.nz;
    for (int j = 0; j < L.ny; ++j) {
      Sums<kMaxGcrOld>* row = &items[long(c) * cc.columns + long(j) * L.nx];
      for (int k = c * cc.levels; k < k1; ++k) {
        const std::ptrdiff_t o = L.at(0, j, k);
        for (int i = 0; i < L.nx; ++i) {
          const double a = apply_cell(L, h, coef, e, i, j, k);
          ae[o + i] = a;
          for (int n = 0; n < basis.m; ++n) row[i].v[n] = dd_add(row[i].v[n], a * basis.q[n][o + i]);
        }
      }
    }
  }
  reduce_items_cpu(items.data(), cc.count(), out);
}

void gcr_direction_cpu(const TileLayout& L, const double* st, const double* e, const double* r, double* p_new,
                       double* q_new, const GcrBasis& basis, double* out) {
  if (solver_skips(st, 2)) return;
  const ColumnChunks cc = column_chunks(L.nx * L.ny, L.nz, kLevelChunk);
  std::vector<Sums<2>> items(cc.count());
  for (int c = 0; c < cc.chunks; ++c) {
    const int k1 = (c + 1) * cc.levels < L.nz ? (c + 1) * cc.levels : L.nz;
    for (int j = 0; j < L.ny; ++j) {
      Sums<2>* row = &items[long(c) * cc.columns + long(j) * L.nx];
      for (int k = c * cc.levels; k < k1; ++k) {
        const std::ptrdiff_t o = L.at(0, j, k);
        for (int i = 0; i < L.nx; ++i) {
          double p = e[o + i], q = q_new[o + i];
          for (int n = 0; n < basis.m; ++n) {
            const double a = st[state::kGcrAlpha + n];
            p = p + a * basis.p[n][o + i];
            q = q + a * basis.q[n][o + i];
          }
          p_new[o + i] = p;
          q_new[o + i] = q;
          row[i].v[0] = dd_add(row[i].v[0], q * q);
          row[i].v[1] = dd_add(row[i].v[1], r[o + i] * q);
        }
      }
    }
  }
  reduce_items_cpu(items.data(), cc.count(), out);
}

}  // namespace tdc
