#include "max_courant_kernel.hpp"

#include <vector>

namespace tdc {

// A row's Courant sums first (a plain loop the compiler vectorises), then their largest over four
// running maxima: a maximum is exact in any order, and courant_sum never gives NaN.
void max_courant_cpu(const MaxCourantArgs& a, const double* u, const double* v, const double* w, double* out) {
  const TileLayout& L = a.L;
  std::vector<double> sums(L.nx);
  double m[4] = {0.0, 0.0, 0.0, 0.0};
  for_each_row(L, [&](std::ptrdiff_t row, int) {
    for (int i = 0; i < L.nx; ++i) sums[i] = courant_sum(a, u[row + i], v[row + i], w[row + i]);
    int i = 0;
    for (; i + 4 <= L.nx; i += 4)
      for (int l = 0; l < 4; ++l) m[l] = sums[i + l] > m[l] ? sums[i + l] : m[l];
    for (; i < L.nx; ++i) m[0] = sums[i] > m[0] ? sums[i] : m[0];
  });
  double most = m[0];
  for (int l = 1; l < 4; ++l) most = m[l] > most ? m[l] : most;
  *out = most;
}

}  // namespace tdc
