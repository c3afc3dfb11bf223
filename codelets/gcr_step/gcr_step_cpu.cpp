// The CPU forms of the GCR(k) kernels: row by row (the inner loops along x vectorise), the sums
// through RowItemReducer. Per value the operations of gcr_step_kernel.hpp's cell formulae (which
// the CUDA kernels run), the items and trees of ItemReducer: the same bits.
#include <algorithm>
#include <cmath>
#include <vector>

#include "../column_operator/column_rows.hpp"
#include "../common/fixed_order_rows.hpp"
#include "gcr_step_kernel.hpp"

namespace tdc {

// gcr_precon sweeps a block of rows at a time, level by level (longer runs of contiguous memory for
// the prefetchers: 0.39 against 0.53 ms per 64 x 32 x 64 tile from memory, the same from cache); the
// block's e, which the backward sweep reads again, is kept to about half of a core's L2.
constexpr std::size_t kPreconBlockBytes = std::size_t(512) << 10;

std::size_t gcr_scratch_bytes(const TileLayout& L) {
  return std::size_t(sum_groups(cell_items(L))) * sizeof(Sums<kMaxGcrOld>);
}

void gcr_precon_cpu(const TileLayout& L, const double* coef, const double* st, int s, double* x, double* r,
                    const double* p_last, const double* q_last, double* e, double* out) {
  if (solver_skips(st, 2)) return;
  const double beta = st[state::kBeta];
  const int nz = L.nz, nx = L.nx;
  const std::ptrdiff_t P = L.plane();
  RowItemReducer<1> red;
  // Per column of the block: the running <r, r> (hi, lo); per column position, max |r|; a zero row
  // stands for the Thomas sweeps' values beyond the column.
  const std::size_t row_bytes = std::size_t(nx) * nz * sizeof(double);
  const int jb = int(std::max<std::size_t>(1, std::min<std::size_t>(L.ny, kPreconBlockBytes / row_bytes)));
  std::vector<double> sum_hi(std::size_t(nx) * jb), sum_lo(sum_hi.size()), col_max(nx, 0.0), zero(nx, 0.0);
  for (int j0 = 0; j0 < L.ny; j0 += jb) {
    const int rows = std::min(jb, L.ny - j0);
    std::fill(sum_hi.begin(), sum_hi.end(), 0.0);
    std::fill(sum_lo.begin(), sum_lo.end(), 0.0);
    for (int k = 0; k < nz; ++k) {
      const double inv_ad = tdc::coef(coef, kInvAd, nz, k), cprime = tdc::coef(coef, kCprime, nz, k),
                   inv_pivot = tdc::coef(coef, kInvPivot, nz, k);
      for (int jj = 0; jj < rows; ++jj) {
        const std::ptrdiff_t o = L.at(0, j0 + jj, k);
        double* __restrict xo = x + o;
        double* __restrict ro = r + o;
        double* __restrict eo = e + o;
        const double* __restrict po = p_last + o;
        const double* __restrict qo = q_last + o;
        const double* __restrict below = k >= s ? e + o - s * P : zero.data();
        double* __restrict sh = sum_hi.data() + std::size_t(jj) * nx;
        double* __restrict sl = sum_lo.data() + std::size_t(jj) * nx;
        double* __restrict cm = col_max.data();
        for (int i = 0; i < nx; ++i) {
          xo[i] = xo[i] + beta * po[i];
          const double rs = ro[i] - beta * qo[i];
          ro[i] = rs;
          cm[i] = std::max(cm[i], std::fabs(rs));
          const DD d = dd_add(DD{sh[i], sl[i]}, rs * rs);
          sh[i] = d.hi;
          sl[i] = d.lo;
          eo[i] = (rs * inv_ad - cprime * below[i]) * inv_pivot;  // thomas_forward
        }
      }
    }
    for (int k = nz - 1; k >= 0; --k) {
      const double phi = tdc::coef(coef, kPhi, nz, k);
      for (int jj = 0; jj < rows; ++jj) {
        const std::ptrdiff_t o = L.at(0, j0 + jj, k);
        double* __restrict eo = e + o;
        const double* __restrict above = k + s < nz ? e + o + s * P : zero.data();
        for (int i = 0; i < nx; ++i) eo[i] = eo[i] - phi * above[i];  // thomas_backward
      }
    }
    for (int jj = 0; jj < rows; ++jj)
      red.push_sums({sum_hi.data() + std::size_t(jj) * nx}, {sum_lo.data() + std::size_t(jj) * nx}, nx);
  }
  red.finish(out);
  // A maximum is exact in any order (and std::max keeps the running value over a NaN, per column
  // as over the tile).
  double r_max = 0.0;
  for (int i = 0; i < nx; ++i) r_max = std::max(r_max, col_max[i]);
  out[kMaxAbsAt] = r_max;
  out[kMaxAbsAt + 1] = 0.0;
}

namespace {

template <int M>
void gcr_apply_rows(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* e, double* ae,
                    const GcrBasis& basis, double* out) {
  const int nx = L.nx;
  RowItemReducer<M> red;
  std::vector<double> prod(static_cast<std::size_t>(M) * nx);
  double* pw[M];
  const double* pr[M];
  for (int n = 0; n < M; ++n) pr[n] = pw[n] = prod.data() + std::size_t(n) * nx;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j) {
      const std::ptrdiff_t o = L.at(0, j, k);
      double* __restrict a = ae + o;
      apply_row(L, h, coef, e, j, k, a);
      for (int n = 0; n < M; ++n) {
        const double* __restrict q = basis.q[n] + o;
        double* __restrict p = pw[n];
        for (int i = 0; i < nx; ++i) p[i] = a[i] * q[i];
      }
      red.push_values(pr, nx);
    }
  red.finish(out);
  for (int n = M; n < kMaxGcrOld; ++n) out[2 * n] = out[2 * n + 1] = 0.0;
}

template <>
void gcr_apply_rows<0>(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* e, double* ae,
                       const GcrBasis&, double* out) {
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j) apply_row(L, h, coef, e, j, k, ae + L.at(0, j, k));
  for (int n = 0; n < kMaxGcrOld; ++n) out[2 * n] = out[2 * n + 1] = 0.0;
}

template <int M>
void gcr_direction_rows(const TileLayout& L, const double* st, const double* e, const double* r, double* p_new,
                        double* q_new, const GcrBasis& basis, double* out) {
  const int nx = L.nx;
  double alpha[M > 0 ? M : 1];
  for (int n = 0; n < M; ++n) alpha[n] = st[state::kGcrAlpha + n];
  RowItemReducer<2> red;
  std::vector<double> qq(nx), rq(nx);
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j) {
      const std::ptrdiff_t o = L.at(0, j, k);
      const double* __restrict eo = e + o;
      const double* __restrict ro = r + o;
      double* __restrict po = p_new + o;
      double* __restrict qo = q_new + o;
      const double* __restrict bp[M > 0 ? M : 1];
      const double* __restrict bq[M > 0 ? M : 1];
      for (int n = 0; n < M; ++n) {
        bp[n] = basis.p[n] + o;
        bq[n] = basis.q[n] + o;
      }
      double* __restrict sqq = qq.data();
      double* __restrict srq = rq.data();
      for (int i = 0; i < nx; ++i) {
        double p = eo[i], q = qo[i];
        for (int n = 0; n < M; ++n) {
          p = p + alpha[n] * bp[n][i];
          q = q + alpha[n] * bq[n][i];
        }
        po[i] = p;
        qo[i] = q;
        sqq[i] = q * q;
        srq[i] = ro[i] * q;
      }
      red.push_values({qq.data(), rq.data()}, nx);
    }
  red.finish(out);
}

// f(std::integral_constant<int, M>) for the basis size m (0 .. kMaxGcrOld).
template <class F>
void with_basis_size(int m, F&& f) {
  static_assert(kMaxGcrOld == 4, "one case per basis size");
  switch (m) {
    case 0: f(std::integral_constant<int, 0>{}); break;
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 3: f(std::integral_constant<int, 3>{}); break;
    default: f(std::integral_constant<int, 4>{}); break;
  }
}

}  // namespace

void gcr_apply_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st, const double* e,
                   double* ae, const GcrBasis& basis, double* out) {
  if (solver_skips(st, 2)) return;
  with_basis_size(basis.m, [&](auto m) { gcr_apply_rows<decltype(m)::value>(L, h, coef, e, ae, basis, out); });
}

void gcr_direction_cpu(const TileLayout& L, const double* st, const double* e, const double* r, double* p_new,
                       double* q_new, const GcrBasis& basis, double* out) {
  if (solver_skips(st, 2)) return;
  with_basis_size(basis.m, [&](auto m) { gcr_direction_rows<decltype(m)::value>(L, st, e, r, p_new, q_new, basis, out); });
}

}  // namespace tdc
