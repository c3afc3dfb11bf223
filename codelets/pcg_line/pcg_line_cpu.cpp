#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "../solver_scalars/solver_state.hpp"
#include "pcg_line_kernel.hpp"

namespace tdc {

std::size_t pcg_line_scratch_bytes(const TileLayout& L) {
  // The step's groups and each group's max |r| after them (the direction step's groups need no maximum).
  const long step = sum_groups(column_items(L)) * (sizeof(Sums<2>) + sizeof(double));
  const long direction = direction_groups(L).count() * sizeof(Sums<1>);
  return std::size_t(std::max(step, direction));
}

void check_direction_strides(const ColumnCouplings& h) {
  if (h.h < 1 || h.h > kDirectionReach || h.s < 1 || h.s > kDirectionReach)
    throw std::invalid_argument("pcg_line: the direction step takes horizontal and vertical strides of 1 or 2, not " +
                                std::to_string(h.h) + " and " + std::to_string(h.s));
}

namespace {

// A x for cells i0 .. i1 - 1 of row (j, k) of the interior, into ax[i0 .. i1).
void apply_row(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* x, int j, int k, int i0,
               int i1, double* ax, bool periodic) {
  if (periodic)
    for (int i = i0; i < i1; ++i) ax[i] = apply_cell_from(L, h, coef, i, j, k, PeriodicAt(L, x, i, j, k));
  else
    for (int i = i0; i < i1; ++i) ax[i] = apply_cell(L, h, coef, x, i, j, k);
}

}  // namespace

// The CPU keeps w whole (in z): the same arithmetic as the GPU's chunked recomputation, in a row loop.
void pcg_line_step_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                       const double* ap, double* r, double* z, double* out) {
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
      if (!first)
        for (int i = 0; i < L.nx; ++i) r[o + i] = r[o + i] - alpha * ap[o + i];
      for (int i = 0; i < L.nx; ++i) {
        const double rs = r[o + i];
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

// u's pending updates (line_u_update), then p' (interior and ghost-ring edges), then A p' and <p', A p'>
// from p' read back, summed in the GPU kernel's items (pcg_line_kernel.hpp).
void pcg_line_direction_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                            double* u, const double* p, const double* z, double* p_next, double* ap_next, double* out,
                            bool periodic) {
  check_direction_strides(h);
  if (solver_skips(st, 2)) return;
  const double alpha = st[state::kAlpha], alpha_prev = st[state::kAlphaPrev], beta = st[state::kBeta];
  const bool first = st[state::kIter] == 0.0, finishing = st[state::kDone] >= 1.0;
  const LineUpdate up = line_u_update(st);
  if (up.now)
    for (int k = 0; k < L.nz; ++k)
      for (int j = 0; j < L.ny; ++j) {
        const std::ptrdiff_t o = L.at(0, j, k);
        if (up.two && up.newest)  // p_next still holds the direction before p (its buffer is written below)
          for (int i = 0; i < L.nx; ++i) u[o + i] = (u[o + i] + alpha_prev * p_next[o + i]) + alpha * p[o + i];
        else if (up.two)
          for (int i = 0; i < L.nx; ++i) u[o + i] = u[o + i] + alpha_prev * p_next[o + i];
        else
          for (int i = 0; i < L.nx; ++i) u[o + i] = u[o + i] + alpha * p[o + i];
      }
  if (finishing) return;             // the pending u updates only
  const int w = periodic ? 0 : h.h;  // the ghost-ring edges A p' reads (no corners)
  auto set_row = [&](int j, int k, int i0, int i1) {
    const std::ptrdiff_t o = L.at(0, j, k);
    if (first)
      for (int i = i0; i < i1; ++i) p_next[o + i] = z[o + i];
    else
      for (int i = i0; i < i1; ++i) p_next[o + i] = z[o + i] + beta * p[o + i];
  };
  for (int k = 0; k < L.nz; ++k) {
    for (int j = -w; j < 0; ++j) set_row(j, k, 0, L.nx);
    for (int j = 0; j < L.ny; ++j) set_row(j, k, -w, L.nx + w);
    for (int j = L.ny; j < L.ny + w; ++j) set_row(j, k, 0, L.nx);
  }
  // A p' and the sum in the GPU kernel's item order: group by group, each a block of columns over a
  // chunk of levels (the rows of a block segment by segment, so that the sum follows A p' in cache).
  const DirectionGroups g = direction_groups(L);
  ItemReducer<1> red;
  std::vector<Sums<1>> items(kSumGroup);
  for (int gz = 0; gz < g.z; ++gz)
    for (int gy = 0; gy < g.y; ++gy)
      for (int gx = 0; gx < g.x; ++gx) {
        std::fill(items.begin(), items.end(), Sums<1>{});
        const int k1 = std::min(L.nz, (gz + 1) * kDirectionLevels);
        const int i0 = gx * kDirectionBlockX, i1 = std::min(L.nx, i0 + kDirectionBlockX);
        for (int k = gz * kDirectionLevels; k < k1; ++k)
          for (int ty = 0; ty < kDirectionBlockY; ++ty) {
            const int j = gy * kDirectionBlockY + ty;
            if (j >= L.ny) break;
            const std::ptrdiff_t o = L.at(0, j, k);
            apply_row(L, h, coef, p_next, j, k, i0, i1, ap_next + o, periodic);
            for (int i = i0; i < i1; ++i) {
              DD& sum = items[i - i0 + kDirectionBlockX * ty].v[0];
              sum = dd_add(sum, p_next[o + i] * ap_next[o + i]);
            }
          }
        for (const auto& item : items) red.push(item);
      }
  red.finish(out);
}

}  // namespace tdc
