// The summation order of tile_moments, shared by its CPU and CUDA kernels.
#pragma once
#include "tile_moments_kernel.hpp"

namespace tdc {

struct ColumnMoments {
  DD mass, mass_sq;
  double min, max;
};

TDC_HD ColumnMoments column_moments(const TileLayout& L, const double* psi, const double* g, int column) {
  const int i = column % L.nx, j = column / L.nx;
  ColumnMoments m;
  m.min = psi[L.at(i, j, 0)];
  m.max = m.min;
  for (int k = 0; k < L.nz; ++k) {
    const double p = psi[L.at(i, j, k)];
    const double gp = g[L.at(i, j, k)] * p;
    m.mass = dd_add(m.mass, gp);
    m.mass_sq = dd_add(m.mass_sq, gp * p);
    m.min = p < m.min ? p : m.min;
    m.max = p > m.max ? p : m.max;
  }
  return m;
}

TDC_HD ColumnMoments empty_column() {
  ColumnMoments m;
  m.min = 1.0 / 0.0;
  m.max = -1.0 / 0.0;
  return m;
}

TDC_HD ColumnMoments merge(ColumnMoments a, const ColumnMoments& b) {
  a.mass = dd_add(a.mass, b.mass);
  a.mass_sq = dd_add(a.mass_sq, b.mass_sq);
  a.min = b.min < a.min ? b.min : a.min;
  a.max = b.max > a.max ? b.max : a.max;
  return a;
}

TDC_HD void store(const ColumnMoments& m, double* v) {
  v[0] = m.mass.hi;
  v[1] = m.mass.lo;
  v[2] = m.mass_sq.hi;
  v[3] = m.mass_sq.lo;
  v[4] = m.min;
  v[5] = m.max;
}
TDC_HD ColumnMoments load(const double* v) {
  ColumnMoments m;
  m.mass = {v[0], v[1]};
  m.mass_sq = {v[2], v[3]};
  m.min = v[4];
  m.max = v[5];
  return m;
}

}  // namespace tdc
