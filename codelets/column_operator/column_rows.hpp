// CPU row forms of column_operator.hpp's formulae: one row (j, k) of a tile at a time, the inner
// loop along x, so that it vectorises. The same operations in the same order per value as
// apply_cell and the Thomas steps, so the same bits.
#pragma once
#include <algorithm>

#include "column_operator.hpp"

namespace tdc {

// y[i] = (A x) at (i, j, k) for i in [0, nx) (apply_cell's formula; x with a valid halo >= h.h).
inline void apply_row(const TileLayout& L, const ColumnCouplings& h, const double* c, const double* x, int j, int k,
                      double* __restrict y) {
  const int nz = L.nz;
  const int ku = level_above(h, nz, k), kd = level_below(h, nz, k);
  const double* __restrict xc = x + L.at(0, j, k);
  const double* __restrict xu = x + L.at(0, j, ku);
  const double* __restrict xd = x + L.at(0, j, kd);
  const double c0 = coef(c, kC0, nz, k), cb = coef(c, kCb, nz, k), cc = coef(c, kCc, nz, k), d = coef(c, kD, nz, k);
  const double ae = h.ae, aw = h.aw, an = h.an, as = h.as;
  const std::ptrdiff_t dx = h.h, dy = std::ptrdiff_t(h.h) * L.sx();
  for (int i = 0; i < L.nx; ++i) {
    const double v = c0 * xc[i] + cb * xu[i] + cc * xd[i] + ae * xc[i + dx] + aw * xc[i - dx] + an * xc[i + dy] +
                     as * xc[i - dy];
    y[i] = v * d;
  }
}

// y[i] = (A x) at (i, j, k) for i in [i0, i1) of row (j, k) (apply_cell_from's formula). periodic: the
// tile is the whole horizontally periodic domain and x is read at PeriodicAt's periodic images, not on
// the ghost ring (only the cells within h.h of an x edge take them cell by cell); otherwise x needs a
// valid halo >= h.h, as apply_row.
inline void apply_row_segment(const TileLayout& L, const ColumnCouplings& h, const double* c, const double* x, int j,
                              int k, int i0, int i1, bool periodic, double* __restrict y) {
  const int nz = L.nz, nx = L.nx, dx = h.h;
  const int ku = level_above(h, nz, k), kd = level_below(h, nz, k);
  const int jn = periodic ? periodic_image(j + dx, L.ny) : j + dx, js = periodic ? periodic_image(j - dx, L.ny) : j - dx;
  const double* __restrict xc = x + L.at(0, j, k);
  const double* __restrict xu = x + L.at(0, j, ku);
  const double* __restrict xd = x + L.at(0, j, kd);
  const double* __restrict xn = x + L.at(0, jn, k);
  const double* __restrict xs = x + L.at(0, js, k);
  const double c0 = coef(c, kC0, nz, k), cb = coef(c, kCb, nz, k), cc = coef(c, kCc, nz, k), d = coef(c, kD, nz, k);
  const double ae = h.ae, aw = h.aw, an = h.an, as = h.as;
  auto edge = [&](int i) {
    const int ie = periodic ? periodic_image(i + dx, nx) : i + dx, iw = periodic ? periodic_image(i - dx, nx) : i - dx;
    const double v =
        c0 * xc[i] + cb * xu[i] + cc * xd[i] + ae * xc[ie] + aw * xc[iw] + an * xn[i] + as * xs[i];
    y[i] = v * d;
  };
  // [i0, a) and [b', i1) near the x edges cell by cell (periodic only), [a, b) vectorised.
  const int a = periodic ? std::min(i1, std::max(i0, dx)) : i0;
  const int b = periodic ? std::max(a, std::min(i1, nx - dx)) : i1;
  for (int i = i0; i < a; ++i) edge(i);
  for (int i = a; i < b; ++i) {
    const double v = c0 * xc[i] + cb * xu[i] + cc * xd[i] + ae * xc[i + dx] + aw * xc[i - dx] + an * xn[i] +
                     as * xs[i];
    y[i] = v * d;
  }
  for (int i = b; i < i1; ++i) edge(i);
}

}  // namespace tdc
