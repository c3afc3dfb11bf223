#include "tile_moments_order.hpp"

namespace tdc {

void tile_moments_cpu(const TileLayout& L, const double* psi, const double* g, double* out) {
  const int columns = L.nx * L.ny;
  ColumnMoments total = empty_column();
  ColumnMoments s[kGroup];
  for (int first = 0; first < columns; first += kGroup) {
    for (int t = 0; t < kGroup; ++t) s[t] = first + t < columns ? column_moments(L, psi, g, first + t) : empty_column();
    for (int stride = kGroup / 2; stride > 0; stride /= 2)
      for (int t = 0; t < stride; ++t) s[t] = merge(s[t], s[t + stride]);
    total = merge(total, s[0]);
  }
  store(total, out);
}

Moments moments_from(const double* v) {
  const ColumnMoments m = load(v);
  return {m.mass, m.mass_sq, m.min, m.max};
}

Moments combine(const Moments& a, const Moments& b) {
  return {dd_add(a.mass, b.mass), dd_add(a.mass_sq, b.mass_sq), b.min < a.min ? b.min : a.min,
          b.max > a.max ? b.max : a.max};
}

}  // namespace tdc
