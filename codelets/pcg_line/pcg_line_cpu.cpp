#include <algorithm>
#include <cmath>
#include <vector>

#include "../solver_scalars/solver_state.hpp"
#include "pcg_line_kernel.hpp"

namespace tdc {

std::size_t pcg_line_scratch_bytes(const TileLayout& L) {
  const long step = sum_groups(column_items(L)) * sizeof(Sums<2>);
  const long direction = sum_groups(cell_items(L)) * sizeof(Sums<1>);
  return std::size_t(std::max(step, direction));
}

namespace {

double apply_of(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* x, int i, int j,
                int k, bool periodic) {
  return periodic ? apply_cell_from(L, h, coef, i, j, k, PeriodicAt(L, x, i, j, k)) : apply_cell(L, h, coef, x, i, j, k);
}

}  // namespace

// The CPU keeps w whole (in z): the same arithmetic as the GPU's chunked recomputation, in a row loop.
void pcg_line_step_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                       double* u, const double* p, double* r, double* z, double* out, bool periodic) {
  if (solver_skips(st, 1)) return;
  const double alpha = st[state::kAlpha];
  const bool first = st[state::kIter] == 0.0;
  const int nz = L.nz, s = h.s;
  const std::ptrdiff_t P = L.plane();
  ItemReducer<2> red;
  std::vector<Sums<2>> row(L.nx);
  double r_max = 0.0;
  for (int j = 0; j < L.ny; ++j) {
    std::fill(row.begin(), row.end(), Sums<2>{});
    const std::ptrdiff_t o0 = L.at(0, j, 0);
    for (int k = 0; k < nz; ++k) {
      const std::ptrdiff_t o = o0 + P * k;
      for (int i = 0; i < L.nx; ++i) {
        double rs = r[o + i];
        if (!first) {
          const double ap = apply_of(L, h, coef, p, i, j, k, periodic);
          u[o + i] = u[o + i] + alpha * p[o + i];
          rs = rs - alpha * ap;
          r[o + i] = rs;
        }
        r_max = std::max(r_max, std::fabs(rs));
        row[i].v[0] = dd_add(row[i].v[0], rs * rs);
        z[o + i] = thomas_forward(coef, nz, k, rs, k >= s ? z[o - s * P + i] : 0.0);
      }
    }
    for (int k = nz - 1; k >= 0; --k) {
      const std::ptrdiff_t o = o0 + P * k;
      for (int i = 0; i < L.nx; ++i) {
        const double zs = thomas_backward(coef, nz, k, z[o + i], k + s < nz ? z[o + s * P + i] : 0.0);
        z[o + i] = zs;
        row[i].v[1] = dd_add(row[i].v[1], zs * r[o + i]);
      }
    }
    for (int i = 0; i < L.nx; ++i) red.push(row[i]);
  }
  red.finish(out);
  out[kMaxAbsAt] = r_max;
  out[kMaxAbsAt + 1] = 0.0;
}

// p' first (interior and ghost-ring edges), then <p', A p'> from p' read back: the same bits as the
// GPU's p' formed at each neighbour.
void pcg_line_direction_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                            const double* p, const double* z, double* p_next, double* out, bool periodic) {
  if (solver_skips(st, 1)) return;
  const double beta = st[state::kBeta];
  const bool first = st[state::kIter] == 0.0;
  const int w = periodic ? 0 : h.h;  // the ghost-ring edges the next step's stencil reads
  for (int k = 0; k < L.nz; ++k)
    for (int j = -w; j < L.ny + w; ++j)
      for (int i = -w; i < L.nx + w; ++i) {
        const bool corner = (i < 0 || i >= L.nx) && (j < 0 || j >= L.ny);
        if (corner) continue;
        const std::ptrdiff_t o = L.at(i, j, k);
        p_next[o] = first ? z[o] : z[o] + beta * p[o];
      }
  ItemReducer<1> red;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const double ps = p_next[L.at(i, j, k)];
        const double ap = apply_of(L, h, coef, p_next, i, j, k, periodic);
        Sums<1> sum{};
        sum.v[0] = dd_add(sum.v[0], ps * ap);
        red.push(sum);
      }
  red.finish(out);
}

}  // namespace tdc
