#include "halo_pack_plan.hpp"

namespace tdc {

CopyList halo_pack_plan(const TileLayout& L, const double* field, double* const strips[4]) {
  CopyList list;
  for (int side = 0; side < 4; ++side) {
    const StripShape s = strip_shape(L, side);
    list.add(tile_to_strip(L, field, s.i0, s.j0, s.w, s.h, strips[side], s, 0, 0));
  }
  return list;
}

}  // namespace tdc
