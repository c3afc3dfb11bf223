// The CPU form of fixed_order_sum.hpp's ItemReducer for kernels that produce their items a row at a
// time: the items are kept as separate hi and lo arrays per sum (structure of arrays), so that the
// kernel's loop that forms them and the group trees vectorise. Same items, same pairs, same order,
// so the same bits as ItemReducer and the CUDA trees.
//
// A group's tree (tree_reduce): in each run of 32 items, strides 16, 8, 4, 2, 1 (item t takes item
// t + stride, merge(lower, upper)), then the 8 run results by strides 4, 2, 1. Strides 16, 8 and 4
// run on the items in place (contiguous pairs); the 4 values left per run are then laid out
// transposed, value t of run w at t 8 + w, where the remaining strides (2 and 1 in the runs, then 4,
// 2, 1 across them) are contiguous halvings a[p] = merge(a[p], a[p + h]), h = 16, 8, 4, 2, 1.
#pragma once
#include <algorithm>
#include <vector>

#include "fixed_order_sum.hpp"

namespace tdc {

template <int N>
class RowItemReducer {
 public:
  // Items from one value each, dd_add(DD{}, v[n][c]) for sum n (the item of a cell-parallel kernel
  // that adds one product per cell).
  void push_values(const double* const (&v)[N], int count) {
    for (int c0 = 0; c0 < count;) {
      const int take = std::min(count - c0, kSumGroup - n_);
      for (int n = 0; n < N; ++n) {
        double* __restrict hi = hi_[n] + n_;
        double* __restrict lo = lo_[n] + n_;
        const double* __restrict x = v[n] + c0;
        for (int c = 0; c < take; ++c) {
          const DD d = dd_add(DD{}, x[c]);
          hi[c] = d.hi;
          lo[c] = d.lo;
        }
      }
      advance(take, c0);
    }
  }
  // Items given as compensated sums (hi[n][c], lo[n][c]).
  void push_sums(const double* const (&hi)[N], const double* const (&lo)[N], int count) {
    for (int c0 = 0; c0 < count;) {
      const int take = std::min(count - c0, kSumGroup - n_);
      for (int n = 0; n < N; ++n) {
        std::copy(hi[n] + c0, hi[n] + c0 + take, hi_[n] + n_);
        std::copy(lo[n] + c0, lo[n] + c0 + take, lo_[n] + n_);
      }
      advance(take, c0);
    }
  }
  // The tile's N sums (hi, lo, ...) into out, as ItemReducer<N>::finish.
  void finish(double* out) {
    if (n_) flush();
    finish_groups_cpu(groups_.data(), long(groups_.size()), out);
  }

 private:
  static constexpr int kRuns = kSumGroup / kWarp;

  void advance(int take, int& c0) {
    n_ += take;
    c0 += take;
    if (n_ == kSumGroup) flush();
  }

  TDC_HD static void merge_at(double* __restrict hi, double* __restrict lo, int p, int q) {
    const DD s = dd_add(DD{hi[p], lo[p]}, DD{hi[q], lo[q]});
    hi[p] = s.hi;
    lo[p] = s.lo;
  }
  // Stride S inside every run.
  template <int S>
  static void runs_stride(double* __restrict hi, double* __restrict lo) {
    for (int w = 0; w < kSumGroup; w += kWarp)
      for (int t = 0; t < S; ++t) merge_at(hi, lo, w + t, w + t + S);
  }
  template <int H>
  static void halve(double* __restrict hi, double* __restrict lo) {
    for (int p = 0; p < H; ++p) merge_at(hi, lo, p, p + H);
  }

  void flush() {
    Sums<N> g;
    for (int n = 0; n < N; ++n) {
      double* __restrict hi = hi_[n];
      double* __restrict lo = lo_[n];
      std::fill(hi + n_, hi + kSumGroup, 0.0);
      std::fill(lo + n_, lo + kSumGroup, 0.0);
      runs_stride<16>(hi, lo);
      runs_stride<8>(hi, lo);
      runs_stride<4>(hi, lo);
      alignas(64) double th[4 * kRuns], tl[4 * kRuns];
      for (int t = 0; t < 4; ++t)
        for (int w = 0; w < kRuns; ++w) {
          th[t * kRuns + w] = hi[w * kWarp + t];
          tl[t * kRuns + w] = lo[w * kWarp + t];
        }
      halve<16>(th, tl);  // stride 2 in the runs
      halve<8>(th, tl);   // stride 1
      halve<4>(th, tl);   // across the runs
      halve<2>(th, tl);
      halve<1>(th, tl);
      g.v[n] = DD{th[0], tl[0]};
    }
    groups_.push_back(g);
    n_ = 0;
  }

  alignas(64) double hi_[N][kSumGroup];
  alignas(64) double lo_[N][kSumGroup];
  std::vector<Sums<N>> groups_;
  int n_ = 0;
};

// The CPU form of ChunkedCellReducer (chunked cell items) for values produced a row at a time: the
// values of a group's kChunkGroupCells cells are kept per sum, then item t of the group sums cells
// t, t + kSumGroup, ... in order, all items at once (vectorised across t). The same items and trees.
template <int N>
class ChunkedRowReducer {
 public:
  // The next `count` cells' values v[n][c], in cell order.
  void push_values(const double* const (&v)[N], int count) {
    for (int c0 = 0; c0 < count;) {
      const int take = int(std::min<long>(count - c0, kChunkGroupCells - n_));
      for (int n = 0; n < N; ++n) std::copy(v[n] + c0, v[n] + c0 + take, val_[n] + n_);
      n_ += take;
      c0 += take;
      if (n_ == kChunkGroupCells) flush();
    }
  }
  void finish(double* out) {
    if (n_) flush();
    red_.finish(out);
  }

 private:
  void flush() {
    alignas(64) double hi[N][kSumGroup] = {}, lo[N][kSumGroup] = {};
    for (int c = 0; c < kCellsPerItem; ++c) {
      const int lim = int(std::max<long>(0, std::min<long>(kSumGroup, n_ - long(c) * kSumGroup)));
      for (int n = 0; n < N; ++n) {
        double* __restrict h = hi[n];
        double* __restrict l = lo[n];
        const double* __restrict x = val_[n] + c * kSumGroup;
        for (int t = 0; t < lim; ++t) {
          const DD d = dd_add(DD{h[t], l[t]}, x[t]);
          h[t] = d.hi;
          l[t] = d.lo;
        }
      }
    }
    const double* hp[N];
    const double* lp[N];
    for (int n = 0; n < N; ++n) {
      hp[n] = hi[n];
      lp[n] = lo[n];
    }
    red_.push_sums(hp, lp, kSumGroup);
    n_ = 0;
  }

  alignas(64) double val_[N][kChunkGroupCells];
  long n_ = 0;
  RowItemReducer<N> red_;
};

}  // namespace tdc
