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

void strided_copies_cpu(const CopyList& list) {
  for (int n = 0; n < list.n; ++n) {
    const StridedCopy& c = list.c[n];
    for (int k = 0; k < c.nz; ++k)
      for (int b = 0; b < c.h; ++b)
        std::memcpy(c.dst + c.dst_offset + b * c.dst_row + k * c.dst_plane,
                    c.src + c.src_offset + b * c.src_row + k * c.src_plane, sizeof(double) * c.w);
  }
}

}  // namespace tdc
