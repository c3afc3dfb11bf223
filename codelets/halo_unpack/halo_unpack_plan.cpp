#include "halo_unpack_plan.hpp"

namespace tdc {

int neighbour_strip_side(int slot) {
  static const int side[kNeighbourSlots] = {East, West, North, South, North, North, South, South};
  return side[slot];
}

void neighbour_offset(int slot, int& dx, int& dy) {
  static const int offset[kNeighbourSlots][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
  dx = offset[slot][0];
  dy = offset[slot][1];
}

CopyList halo_unpack_plan(const TileLayout& L, double* field, const double* const own[4],
                          const double* const nb[kNeighbourSlots]) {
  const int h = L.halo, nx = L.nx, ny = L.ny;
  const StripShape we = strip_shape(L, West), sn = strip_shape(L, South);  // strip shapes (all tiles alike)
  CopyList list;
  // Own border cells first, where the strips hold them.
  for (int side = 0; own && side < 4; ++side) {
    const StripShape s = strip_shape(L, side);
    list.add(strip_to_tile(L, own[side], s, 0, 0, field, s.i0, s.j0, s.w, s.h));
  }
  // Ghost ring: edges from the four edge neighbours, corners from the diagonal ones.
  list.add(strip_to_tile(L, nb[FromWest], we, 0, 0, field, -h, 0, h, ny));
  list.add(strip_to_tile(L, nb[FromEast], we, 0, 0, field, nx, 0, h, ny));
  list.add(strip_to_tile(L, nb[FromSouth], sn, 0, 0, field, 0, -h, nx, h));
  list.add(strip_to_tile(L, nb[FromNorth], sn, 0, 0, field, 0, ny, nx, h));
  list.add(strip_to_tile(L, nb[FromSouthWest], sn, nx - h, 0, field, -h, -h, h, h));
  list.add(strip_to_tile(L, nb[FromSouthEast], sn, 0, 0, field, nx, -h, h, h));
  list.add(strip_to_tile(L, nb[FromNorthWest], sn, nx - h, 0, field, -h, ny, h, h));
  list.add(strip_to_tile(L, nb[FromNorthEast], sn, 0, 0, field, nx, ny, h, h));
  return list;
}

}  // namespace tdc
