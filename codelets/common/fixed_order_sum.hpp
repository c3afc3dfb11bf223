// Reproducible sums inside a tile: a kernel produces "items" (compensated partial sums of N
// quantities, e.g. one per column or per column chunk), which are combined in one fixed order that the
// CPU and CUDA code share bit for bit:
//   1. groups of kSumGroup consecutive items, each reduced by a pairwise tree (stride halving);
//   2. the group partials dealt to kSumGroup lanes (lane t takes groups t, t + kSumGroup, ... in
//      order), then the lanes reduced by the same tree.
// The result is the tile's partial (N double-doubles, stored hi, lo, hi, lo, ...). Tiles are then
// combined in tile order (codelets/solver_scalars), so only the double-double rounding separates
// different tile layouts, far below the last bit of the final double.
#pragma once
#include <vector>

#include "double_double.hpp"

namespace tdc {

constexpr int kSumGroup = 256;

template <int N>
struct Sums {
  DD v[N];
};

template <int N>
TDC_HD Sums<N> merge(Sums<N> a, const Sums<N>& b) {
  for (int n = 0; n < N; ++n) a.v[n] = dd_add(a.v[n], b.v[n]);
  return a;
}

template <int N>
TDC_HD void store_sums(const Sums<N>& s, double* out) {
  for (int n = 0; n < N; ++n) {
    out[2 * n] = s.v[n].hi;
    out[2 * n + 1] = s.v[n].lo;
  }
}

// Items of a kernel that sweeps levels: item = chunk * columns + column, each summing `levels`
// consecutive levels of one column bottom to top (levels = nz: one item per column).
struct ColumnChunks {
  int columns = 0, levels = 0, chunks = 0;
  TDC_HD long count() const { return long(columns) * chunks; }
};
inline ColumnChunks column_chunks(int columns, int nz, int levels) {
  if (levels > nz) levels = nz;
  return {columns, levels, (nz + levels - 1) / levels};
}
constexpr int kLevelChunk = 32;  // levels per item of the cell-parallel kernels (apply, dot)

inline long sum_groups(long items) { return (items + kSumGroup - 1) / kSumGroup; }

// The pairwise tree over kSumGroup values (CPU form; the CUDA form runs the same strides in shared memory).
template <int N>
Sums<N> tree_reduce(Sums<N>* s) {
  for (int stride = kSumGroup / 2; stride > 0; stride /= 2)
    for (int t = 0; t < stride; ++t) s[t] = merge(s[t], s[t + stride]);
  return s[0];
}

template <int N>
void finish_groups_cpu(const Sums<N>* groups, long count, double* out) {
  std::vector<Sums<N>> lane(kSumGroup);
  for (int t = 0; t < kSumGroup; ++t)
    for (long q = t; q < count; q += kSumGroup) lane[t] = merge(lane[t], groups[q]);
  store_sums(tree_reduce(lane.data()), out);
}

template <int N>
void reduce_items_cpu(const Sums<N>* items, long count, double* out) {
  const long groups = sum_groups(count);
  std::vector<Sums<N>> g(groups), s(kSumGroup);
  for (long q = 0; q < groups; ++q) {
    for (int t = 0; t < kSumGroup; ++t) s[t] = q * kSumGroup + t < count ? items[q * kSumGroup + t] : Sums<N>{};
    g[q] = tree_reduce(s.data());
  }
  finish_groups_cpu(g.data(), groups, out);
}

}  // namespace tdc
