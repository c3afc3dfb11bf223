#include <vector>

#include "../solver_scalars/solver_state.hpp"
#include "dot_partial_kernel.hpp"

namespace tdc {

std::size_t dot_partial_scratch_bytes(const TileLayout& L) {
  return sum_groups(column_chunks(L.nx * L.ny, L.nz, kLevelChunk).count()) * sizeof(Sums<2>);
}

void dot_partial_cpu(const TileLayout& L, const double* st, int skip_from, const double* x, const double* y,
                     const double* z, double* out) {
  if (solver_skips(st, skip_from)) return;
  const ColumnChunks cc = column_chunks(L.nx * L.ny, L.nz, kLevelChunk);
  std::vector<Sums<2>> items(cc.count());
  for (int c = 0; c < cc.chunks; ++c) {
    const int k1 = (c + 1) * cc.levels < L.nz ? (c + 1) * cc.levels : L.nz;
    for (int j = 0; j < L.ny; ++j) {
      Sums<2>* row = &items[long(c) * cc.columns + long(j) * L.nx];
      for (int k = c * cc.levels; k < k1; ++k) {
        const std::ptrdiff_t o = L.at(0, j, k);
        for (int i = 0; i < L.nx; ++i) {
          row[i].v[0] = dd_add(row[i].v[0], x[o + i] * y[o + i]);
          row[i].v[1] = dd_add(row[i].v[1], x[o + i] * z[o + i]);
        }
      }
    }
  }
  reduce_items_cpu(items.data(), cc.count(), out);
}

}  // namespace tdc
