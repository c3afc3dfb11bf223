#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "../solver_scalars/solver_state.hpp"
#include "../column_operator/column_rows.hpp"
#include "../common/fixed_order_rows.hpp"
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

// The step sweeps a block of rows at a time, level by level (as gcr_precon: longer runs of contiguous
// memory for the prefetchers); the block's z, which the backward sweep reads again, is kept to about
// half of a core's L2.
constexpr std::size_t kStepBlockBytes = std::size_t(512) << 10;

// The forward sweep of rows j0 .. j0 + rows - 1 at level k: r -= alpha A p (not on a solve's first
// iteration), max |r| per column position, <r, r> per column, w = the Thomas forward step into z.
template <bool First>
void step_forward_level(const TileLayout& L, const double* coef, double alpha, int s, int k, int j0, int rows,
                        const double* ap, double* r, double* z, const double* zero, double* rr_hi, double* rr_lo,
                        double* col_max) {
  const int nz = L.nz, nx = L.nx;
  const std::ptrdiff_t P = L.plane();
  const double inv_ad = tdc::coef(coef, kInvAd, nz, k), cprime = tdc::coef(coef, kCprime, nz, k),
               inv_pivot = tdc::coef(coef, kInvPivot, nz, k);
  for (int jj = 0; jj < rows; ++jj) {
    const std::ptrdiff_t o = L.at(0, j0 + jj, k);
    double* __restrict ro = r + o;
    double* __restrict zo = z + o;
    const double* __restrict apo = ap + o;
    const double* __restrict below = k >= s ? z + o - s * P : zero;
    double* __restrict sh = rr_hi + std::size_t(jj) * nx;
    double* __restrict sl = rr_lo + std::size_t(jj) * nx;
    double* __restrict cm = col_max;
    for (int i = 0; i < nx; ++i) {
      double rs = ro[i];
      if (!First) {
        rs = rs - alpha * apo[i];
        ro[i] = rs;
      }
      cm[i] = std::max(cm[i], std::fabs(rs));
      const DD d = dd_add(DD{sh[i], sl[i]}, rs * rs);
      sh[i] = d.hi;
      sl[i] = d.lo;
      zo[i] = (rs * inv_ad - cprime * below[i]) * inv_pivot;  // thomas_forward
    }
  }
}

}  // namespace

// The CPU keeps w whole (in z): the same arithmetic as the GPU's chunked recomputation, row by row
// (the inner loops along x vectorise), the column items' sums per column of a block of rows pushed
// in the items' order (j, then i) into RowItemReducer: the same bits as the cell form.
void pcg_line_step_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                       const double* ap, double* r, double* z, double* out) {
  if (solver_skips(st, 1)) return;
  const double alpha = st[state::kAlpha];
  const bool first = st[state::kIter] == 0.0;
  const int nz = L.nz, nx = L.nx, s = h.s;
  const std::ptrdiff_t P = L.plane();
  RowItemReducer<2> red;
  const std::size_t row_bytes = std::size_t(nx) * nz * sizeof(double);
  const int jb = int(std::max<std::size_t>(1, std::min<std::size_t>(L.ny, kStepBlockBytes / row_bytes)));
  const std::size_t block = std::size_t(nx) * jb;
  // Per column of the block: <r, r> and <r, z> (hi, lo); per column position, max |r|; a zero row
  // stands for the Thomas sweeps' values beyond the column.
  std::vector<double> sums(4 * block), col_max(nx, 0.0), zero(nx, 0.0);
  double* rr_hi = sums.data();
  double* rr_lo = rr_hi + block;
  double* rz_hi = rr_lo + block;
  double* rz_lo = rz_hi + block;
  for (int j0 = 0; j0 < L.ny; j0 += jb) {
    const int rows = std::min(jb, L.ny - j0);
    std::fill(sums.begin(), sums.end(), 0.0);
    for (int k = 0; k < nz; ++k)
      if (first)
        step_forward_level<true>(L, coef, alpha, s, k, j0, rows, ap, r, z, zero.data(), rr_hi, rr_lo, col_max.data());
      else
        step_forward_level<false>(L, coef, alpha, s, k, j0, rows, ap, r, z, zero.data(), rr_hi, rr_lo, col_max.data());
    for (int k = nz - 1; k >= 0; --k) {
      const double phi = tdc::coef(coef, kPhi, nz, k);
      for (int jj = 0; jj < rows; ++jj) {
        const std::ptrdiff_t o = L.at(0, j0 + jj, k);
        double* __restrict zo = z + o;
        const double* __restrict ro = r + o;
        const double* __restrict above = k + s < nz ? z + o + s * P : zero.data();
        double* __restrict sh = rz_hi + std::size_t(jj) * nx;
        double* __restrict sl = rz_lo + std::size_t(jj) * nx;
        for (int i = 0; i < nx; ++i) {
          const double zs = zo[i] - phi * above[i];  // thomas_backward
          zo[i] = zs;
          const DD d = dd_add(DD{sh[i], sl[i]}, zs * ro[i]);
          sh[i] = d.hi;
          sl[i] = d.lo;
        }
      }
    }
    for (int jj = 0; jj < rows; ++jj) {
      const std::size_t at = std::size_t(jj) * nx;
      red.push_sums({rr_hi + at, rz_hi + at}, {rr_lo + at, rz_lo + at}, nx);
    }
  }
  red.finish(out);
  // A maximum is exact in any order (and std::max keeps the running value over a NaN, per column as
  // over the tile).
  double r_max = 0.0;
  for (int i = 0; i < nx; ++i) r_max = std::max(r_max, col_max[i]);
  out[kMaxAbsAt] = r_max;
  out[kMaxAbsAt + 1] = 0.0;
}

// u's pending updates (line_u_update), then p' (interior and ghost-ring edges), then A p' and <p', A p'>
// from p' read back, summed in the GPU kernel's items (pcg_line_kernel.hpp). Row by row: A p' of a
// whole row at once (apply_row_segment), its products added into the items of every x-block's group
// of the row's y-block and level chunk, the groups pushed in the GPU's order (x-block fastest).
void pcg_line_direction_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                            double* u, const double* p, const double* z, double* p_next, double* ap_next, double* out,
                            bool periodic) {
  check_direction_strides(h);
  if (solver_skips(st, 2)) return;
  const double alpha = st[state::kAlpha], alpha_prev = st[state::kAlphaPrev], beta = st[state::kBeta];
  const bool first = st[state::kIter] == 0.0, finishing = st[state::kDone] >= 1.0;
  const LineUpdate up = line_u_update(st);
  const int nx = L.nx;
  if (up.now)
    for (int k = 0; k < L.nz; ++k)
      for (int j = 0; j < L.ny; ++j) {
        const std::ptrdiff_t o = L.at(0, j, k);
        double* __restrict uo = u + o;
        const double* __restrict po = p + o;
        const double* __restrict older = p_next + o;
        if (up.two && up.newest)  // p_next still holds the direction before p (its buffer is written below)
          for (int i = 0; i < nx; ++i) uo[i] = (uo[i] + alpha_prev * older[i]) + alpha * po[i];
        else if (up.two)
          for (int i = 0; i < nx; ++i) uo[i] = uo[i] + alpha_prev * older[i];
        else
          for (int i = 0; i < nx; ++i) uo[i] = uo[i] + alpha * po[i];
      }
  if (finishing) return;             // the pending u updates only
  const int w = periodic ? 0 : h.h;  // the ghost-ring edges A p' reads (no corners)
  auto set_row = [&](int j, int k, int i0, int i1) {
    const std::ptrdiff_t o = L.at(0, j, k);
    double* __restrict pn = p_next + o;
    const double* __restrict zo = z + o;
    const double* __restrict po = p + o;
    if (first)
      for (int i = i0; i < i1; ++i) pn[i] = zo[i];
    else
      for (int i = i0; i < i1; ++i) pn[i] = zo[i] + beta * po[i];
  };
  for (int k = 0; k < L.nz; ++k) {
    for (int j = -w; j < 0; ++j) set_row(j, k, 0, nx);
    for (int j = 0; j < L.ny; ++j) set_row(j, k, -w, nx + w);
    for (int j = L.ny; j < L.ny + w; ++j) set_row(j, k, 0, nx);
  }
  // The groups of one y-block and level chunk side by side: group gx's item t at gx kSumGroup + t
  // (t = i - gx kDirectionBlockX + kDirectionBlockX ty), each item a column's levels of the chunk
  // summed bottom to top.
  const DirectionGroups g = direction_groups(L);
  RowItemReducer<1> red;
  std::vector<double> item_hi(std::size_t(g.x) * kSumGroup), item_lo(item_hi.size());
  for (int gz = 0; gz < g.z; ++gz)
    for (int gy = 0; gy < g.y; ++gy) {
      std::fill(item_hi.begin(), item_hi.end(), 0.0);
      std::fill(item_lo.begin(), item_lo.end(), 0.0);
      const int k1 = std::min(L.nz, (gz + 1) * kDirectionLevels);
      for (int k = gz * kDirectionLevels; k < k1; ++k)
        for (int ty = 0; ty < kDirectionBlockY; ++ty) {
          const int j = gy * kDirectionBlockY + ty;
          if (j >= L.ny) break;
          const std::ptrdiff_t o = L.at(0, j, k);
          apply_row_segment(L, h, coef, p_next, j, k, 0, nx, periodic, ap_next + o);
          const double* __restrict pn = p_next + o;
          const double* __restrict an = ap_next + o;
          for (int gx = 0; gx < g.x; ++gx) {
            const int i0 = gx * kDirectionBlockX, i1 = std::min(nx, i0 + kDirectionBlockX);
            double* __restrict sh = item_hi.data() + std::size_t(gx) * kSumGroup + kDirectionBlockX * ty - i0;
            double* __restrict sl = item_lo.data() + std::size_t(gx) * kSumGroup + kDirectionBlockX * ty - i0;
            for (int i = i0; i < i1; ++i) {
              const DD d = dd_add(DD{sh[i], sl[i]}, pn[i] * an[i]);
              sh[i] = d.hi;
              sl[i] = d.lo;
            }
          }
        }
      for (int gx = 0; gx < g.x; ++gx) {
        const std::size_t at = std::size_t(gx) * kSumGroup;
        red.push_sums({item_hi.data() + at}, {item_lo.data() + at}, kSumGroup);
      }
    }
  red.finish(out);
}

}  // namespace tdc
