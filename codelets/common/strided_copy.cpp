#include "strided_copy.hpp"

#include <cstring>

namespace tdc {

StridedCopy tile_to_strip(const TileLayout& L, const double* tile, int i0, int j0, int w, int h, double* strip,
                          const StripShape& s, int a0, int b0) {
  StridedCopy c;
  c.src = tile;
  c.src_offset = L.at(i0, j0, 0);
  c.src_row = L.sx();
  c.src_plane = L.plane();
  c.dst = strip;
  c.dst_offset = a0 + std::ptrdiff_t(s.w) * b0;
  c.dst_row = s.w;
  c.dst_plane = std::ptrdiff_t(s.w) * s.h;
  c.w = w;
  c.h = h;
  c.nz = L.nz;
  return c;
}

StridedCopy strip_to_tile(const TileLayout& L, const double* strip, const StripShape& s, int a0, int b0, double* tile,
                          int i0, int j0, int w, int h) {
  StridedCopy c;
  c.src = strip;
  c.src_offset = a0 + std::ptrdiff_t(s.w) * b0;
  c.src_row = s.w;
  c.src_plane = std::ptrdiff_t(s.w) * s.h;
  c.dst = tile;
  c.dst_offset = L.at(i0, j0, 0);
  c.dst_row = L.sx();
  c.dst_plane = L.plane();
  c.w = w;
  c.h = h;
  c.nz = L.nz;
  return c;
}

StridedCopy tile_to_tile(const TileLayout& from, const double* src, int i0, int j0, const TileLayout& to, double* dst,
                         int a0, int b0, int w, int h) {
  StridedCopy c = tile_to_strip(from, src, i0, j0, w, h, dst, StripShape{0, 0, to.sx(), to.sy()}, 0, 0);
  c.dst_offset = to.at(a0, b0, 0);  // a strip of the destination's whole plane, then its cell (a0, b0)
  return c;
}

namespace {

// Rows of W doubles (W known at compile time: inline moves; the halo's west and east columns are
// rows of 1-3 doubles, a library memcpy call each cost more than the copy).
template <int W>
void copy_rows(const StridedCopy& c) {
  for (int k = 0; k < c.nz; ++k) {
    const double* src = c.src + c.src_offset + k * c.src_plane;
    double* dst = c.dst + c.dst_offset + k * c.dst_plane;
    for (int b = 0; b < c.h; ++b) {
      const double* __restrict s = src + b * c.src_row;
      double* __restrict d = dst + b * c.dst_row;
      if constexpr (W > 0) {
        double v[W];
        for (int i = 0; i < W; ++i) v[i] = s[i];
        for (int i = 0; i < W; ++i) d[i] = v[i];
      } else {
        std::memcpy(d, s, sizeof(double) * c.w);
      }
    }
  }
}

void copy_box(const StridedCopy& c) {
  switch (c.w) {
    case 1: copy_rows<1>(c); break;
    case 2: copy_rows<2>(c); break;
    case 3: copy_rows<3>(c); break;
    case 4: copy_rows<4>(c); break;
    default: copy_rows<0>(c); break;
  }
}

}  // namespace

void strided_copies_cpu(const CopyList& list) {
  for (int n = 0; n < list.n; ++n) copy_box(list.c[n]);
}

void strided_copies_cpu(const std::vector<StridedCopy>& copies) {
  for (const StridedCopy& c : copies) copy_box(c);
}

}  // namespace tdc
