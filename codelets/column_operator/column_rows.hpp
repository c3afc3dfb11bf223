// CPU row forms of column_operator.hpp's formulae: one row (j, k) of a tile at a time, the inner
// loop along x, so that it vectorises. The same operations in the same order per value as
// apply_cell and the Thomas steps, so the same bits.
#pragma once
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

}  // namespace tdc
