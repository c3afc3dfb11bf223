#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "../common/fixed_order_rows.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "dot_partial_kernel.hpp"

namespace tdc {

// The groups' partial sums, then their maxima of |x|.
std::size_t dot_partial_scratch_bytes(const TileLayout& L) {
  return chunk_groups(L) * (sizeof(Sums<2>) + sizeof(double));
}

void dot_partial_rows_cpu(const TileLayout& L, const double* x, const double* y, const double* z, double* out) {
  const int nx = L.nx;
  auto red = std::make_unique<ChunkedRowReducer<2>>();
  std::vector<double> xy(nx), xz(nx), col_max(nx, 0.0);
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j) {
      const std::ptrdiff_t o = L.at(0, j, k);
      const double* __restrict xo = x + o;
      const double* __restrict yo = y + o;
      const double* __restrict zo = z + o;
      double* __restrict a = xy.data();
      double* __restrict b = xz.data();
      double* __restrict m = col_max.data();
      for (int i = 0; i < nx; ++i) {
        m[i] = std::max(m[i], std::fabs(xo[i]));
        a[i] = xo[i] * yo[i];
        b[i] = xo[i] * zo[i];
      }
      red->push_values({xy.data(), xz.data()}, nx);
    }
  red->finish(out);
  // A maximum is exact in any order (std::max keeps the running value over a NaN, per column
  // position as over the tile).
  double x_max = 0.0;
  for (int i = 0; i < nx; ++i) x_max = std::max(x_max, col_max[i]);
  out[kMaxAbsAt] = x_max;
  out[kMaxAbsAt + 1] = 0.0;
}

void dot_partial_cpu(const TileLayout& L, const double* st, int skip_from, const double* x, const double* y,
                     const double* z, double* out) {
  if (solver_skips(st, skip_from)) return;
  dot_partial_rows_cpu(L, x, y, z, out);
}

}  // namespace tdc
