#include "halo_self_plan.hpp"

#include <stdexcept>

namespace tdc {

CopyList halo_self_plan(const TileLayout& L, double* field) {
  const int h = L.halo, nx = L.nx, ny = L.ny;
  if (nx < h || ny < h) throw std::invalid_argument("halo_self: the tile is narrower than its halo");
  // A box of w x h columns from interior origin (si, sj) to ghost origin (di, dj), same array.
  auto box = [&](int si, int sj, int di, int dj, int w, int hh) {
    StridedCopy c;
    c.src = field;
    c.dst = field;
    c.src_offset = L.at(si, sj, 0);
    c.dst_offset = L.at(di, dj, 0);
    c.src_row = c.dst_row = L.sx();
    c.src_plane = c.dst_plane = L.plane();
    c.w = w;
    c.h = hh;
    c.nz = L.nz;
    return c;
  };
  CopyList list;
  list.add(box(nx - h, 0, -h, 0, h, ny));       // west ghosts <- east border
  list.add(box(0, 0, nx, 0, h, ny));            // east ghosts <- west border
  list.add(box(0, ny - h, 0, -h, nx, h));       // south ghosts <- north border
  list.add(box(0, 0, 0, ny, nx, h));            // north ghosts <- south border
  list.add(box(nx - h, ny - h, -h, -h, h, h));  // south-west corner
  list.add(box(0, ny - h, nx, -h, h, h));       // south-east
  list.add(box(nx - h, 0, -h, ny, h, h));       // north-west
  list.add(box(0, 0, nx, ny, h, h));            // north-east
  return list;
}

}  // namespace tdc
