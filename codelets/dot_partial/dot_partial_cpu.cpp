#include <algorithm>
#include <cmath>

#include "../solver_scalars/solver_state.hpp"
#include "dot_partial_kernel.hpp"

namespace tdc {

// The groups' partial sums, then their maxima of |x|.
std::size_t dot_partial_scratch_bytes(const TileLayout& L) {
  return chunk_groups(L) * (sizeof(Sums<2>) + sizeof(double));
}

void dot_partial_cpu(const TileLayout& L, const double* st, int skip_from, const double* x, const double* y,
                     const double* z, double* out) {
  if (solver_skips(st, skip_from)) return;
  ChunkedCellReducer<2> red;
  double x_max = 0.0;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const std::ptrdiff_t o = L.at(i, j, k);
        x_max = std::max(x_max, std::fabs(x[o]));
        red.push({x[o] * y[o], x[o] * z[o]});
      }
  red.finish(out);
  out[kMaxAbsAt] = x_max;
  out[kMaxAbsAt + 1] = 0.0;
}

}  // namespace tdc
