// Reproducible sums inside a tile: a kernel produces "items" (compensated partial sums of N
// quantities, e.g. one per column or per column chunk), which are combined in one fixed order that the
// CPU and CUDA code share bit for bit:
//   1. groups of kSumGroup consecutive items, each reduced by a pairwise tree: within each run of 32
//      items (a GPU warp) by stride halving 16, 8, 4, 2, 1, then the 8 run results by 4, 2, 1;
//   2. the group partials dealt to kSumGroup lanes (lane t takes groups t, t + kSumGroup, ... in
//      order), then the lanes reduced by the same tree.
// The result is the tile's partial (N double-doubles, stored hi, lo, hi, lo, ...). Tiles are then
// combined in tile order (codelets/solver_scalars), so only the double-double rounding separates
// different tile layouts, far below the last bit of the final double.
#pragma once
#include <vector>

#include "double_double.hpp"
#include "tile_layout.hpp"

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

// The two item orders: one item per interior cell for the cell-parallel kernels (item = i + nx (j +
// ny k)), or one per column for the Thomas kernels (item = i + nx j, the column summed bottom to top
// or as the sweep goes).
TDC_HD long cell_items(const TileLayout& L) { return long(L.nx) * L.ny * L.nz; }
TDC_HD long column_items(const TileLayout& L) { return long(L.nx) * L.ny; }
// 32-bit unsigned arithmetic (a 64-bit division is a long software routine on a GPU): a tile holds
// fewer than 2^32 cells (a 1600^3 tile would take 33 GB per field).
TDC_HD void cell_of_item(const TileLayout& L, long item, int& i, int& j, int& k) {
  const unsigned columns = unsigned(L.nx) * unsigned(L.ny), it = unsigned(item);
  const unsigned kk = it / columns, col = it - kk * columns, jj = col / unsigned(L.nx);
  k = int(kk);
  j = int(jj);
  i = int(col - jj * unsigned(L.nx));
}

TDC_HD long sum_groups(long items) { return (items + kSumGroup - 1) / kSumGroup; }

// Chunked cell items (dot_partial): a dd tree per cell made that kernel
// slower on a GPU (0.43 ms for a 256^3 dot product; 0.37 chunked, still 3x the bandwidth time), so an item sums
// kCellsPerItem cells first, in order. Group g holds cells g G .. g G + G - 1 (G = kSumGroup
// kCellsPerItem, cell order i fastest, then j, k); its item t sums cells g G + t + kSumGroup c,
// c = 0, 1, ..., so that a warp's 32 items read 32 consecutive cells at every c.
constexpr int kCellsPerItem = 8;
constexpr long kChunkGroupCells = long(kSumGroup) * kCellsPerItem;
TDC_HD long chunk_groups(const TileLayout& L) { return (cell_items(L) + kChunkGroupCells - 1) / kChunkGroupCells; }
// The cell (in cell_of_item's order) of chunk c of item `item`.
TDC_HD long chunk_cell(long item, int c) {
  const long g = item / kSumGroup, t = item - g * kSumGroup;
  return g * kChunkGroupCells + t + long(kSumGroup) * c;
}

// The cells of a chunked item in order, (i, j, k) carried from one to the next (kSumGroup cells on)
// rather than found by two divisions each.
struct ChunkCells {
  int i, j, k, nx, ny, di, dj;
  TDC_HD ChunkCells(const TileLayout& L, long item) : nx(L.nx), ny(L.ny), di(kSumGroup % L.nx), dj(kSumGroup / L.nx) {
    cell_of_item(L, chunk_cell(item, 0), i, j, k);
  }
  TDC_HD void next() {
    i += di;
    j += dj;
    if (i >= nx) {
      i -= nx;
      ++j;
    }
    while (j >= ny) {
      j -= ny;
      ++k;
    }
  }
};

constexpr int kWarp = 32;
static_assert(kSumGroup == 8 * kWarp, "the tree assumes 8 warps of 32");

// The pairwise tree over kSumGroup values (CPU form; the CUDA form does the same pairs with warp
// shuffles, then in shared memory).
template <int N>
Sums<N> tree_reduce(Sums<N>* s) {
  for (int w = 0; w < kSumGroup; w += kWarp)
    for (int stride = kWarp / 2; stride > 0; stride /= 2)
      for (int t = 0; t < stride; ++t) s[w + t] = merge(s[w + t], s[w + t + stride]);
  for (int stride = kSumGroup / kWarp / 2; stride > 0; stride /= 2)
    for (int t = 0; t < stride; ++t) s[t * kWarp] = merge(s[t * kWarp], s[(t + stride) * kWarp]);
  return s[0];
}

template <int N>
void finish_groups_cpu(const Sums<N>* groups, long count, double* out) {
  std::vector<Sums<N>> lane(kSumGroup);
  for (int t = 0; t < kSumGroup; ++t)
    for (long q = t; q < count; q += kSumGroup) lane[t] = merge(lane[t], groups[q]);
  store_sums(tree_reduce(lane.data()), out);
}

// The CPU side: items pushed in item order are reduced group by group as they come.
template <int N>
class ItemReducer {
 public:
  void push(const Sums<N>& s) {
    buf_[n_++] = s;
    if (n_ == kSumGroup) flush();
  }
  void finish(double* out) {
    if (n_) flush();
    finish_groups_cpu(groups_.data(), long(groups_.size()), out);
  }

 private:
  void flush() {
    for (int t = n_; t < kSumGroup; ++t) buf_[t] = Sums<N>{};
    groups_.push_back(tree_reduce(buf_.data()));
    n_ = 0;
  }
  std::vector<Sums<N>> buf_ = std::vector<Sums<N>>(kSumGroup);
  std::vector<Sums<N>> groups_;
  int n_ = 0;
};

// The CPU side of chunked cell items: values pushed in cell order, N per cell; every kChunkGroupCells
// cells become a group of kSumGroup items summed in the order above.
template <int N>
class ChunkedCellReducer {
 public:
  void push(const double (&v)[N]) {
    for (int q = 0; q < N; ++q) buf_[std::size_t(n_) * N + q] = v[q];
    if (++n_ == kChunkGroupCells) flush();
  }
  void finish(double* out) {
    if (n_) flush();
    red_.finish(out);
  }

 private:
  void flush() {
    for (int t = 0; t < kSumGroup; ++t) {
      Sums<N> s{};
      for (long cell = t; cell < n_; cell += kSumGroup)
        for (int q = 0; q < N; ++q) s.v[q] = dd_add(s.v[q], buf_[std::size_t(cell) * N + q]);
      red_.push(s);
    }
    n_ = 0;
  }
  std::vector<double> buf_ = std::vector<double>(std::size_t(kChunkGroupCells) * N);
  long n_ = 0;
  ItemReducer<N> red_;
};

}  // namespace tdc
