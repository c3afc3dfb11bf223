#include "multigrid_gather.hpp"

namespace tdc {
namespace {

// A box of the tile's interior size between two layouts, from (si, sj) in the source to (di, dj) in
// the destination.
StridedCopy box(const TileLayout& from, const double* src, int si, int sj, const TileLayout& to, double* dst, int di,
                int dj, const TileLayout& tile) {
  StridedCopy c;
  c.src = src;
  c.src_offset = from.at(si, sj, 0);
  c.src_row = from.sx();
  c.src_plane = from.plane();
  c.dst = dst;
  c.dst_offset = to.at(di, dj, 0);
  c.dst_row = to.sx();
  c.dst_plane = to.plane();
  c.w = tile.nx;
  c.h = tile.ny;
  c.nz = tile.nz;
  return c;
}

}  // namespace

StridedCopy tile_into_whole(const TileLayout& tile, const double* src, int tx, int ty, const TileLayout& whole,
                            double* dst) {
  return box(tile, src, 0, 0, whole, dst, tx * tile.nx, ty * tile.ny, tile);
}

StridedCopy whole_into_tile(const TileLayout& whole, const double* src, int tx, int ty, const TileLayout& tile,
                            double* dst) {
  return box(whole, src, tx * tile.nx, ty * tile.ny, tile, dst, 0, 0, tile);
}

}  // namespace tdc
