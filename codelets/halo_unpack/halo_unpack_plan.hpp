// The plain halo_unpack kernel: which strip fills which part of a tile's ghost ring and border (no
// StarPU here); the copies run through strided_copies_cpu / strided_copies_cuda.
#pragma once
#include "../common/strided_copy.hpp"

namespace tdc {

// Which neighbour strip feeds each part of the ghost ring, in buffer order.
enum NeighbourSlot : int {
  FromWest = 0,   // its East strip
  FromEast,       // its West strip
  FromSouth,      // its North strip
  FromNorth,      // its South strip
  FromSouthWest,  // its North strip (the corner part)
  FromSouthEast,  // its North strip
  FromNorthWest,  // its South strip
  FromNorthEast,  // its South strip
  kNeighbourSlots
};
// The side of the neighbour's strips that slot reads.
int neighbour_strip_side(int slot);
// Where that neighbour is, in tiles: (dx, dy).
void neighbour_offset(int slot, int& dx, int& dy);

// The ghost ring from the neighbours' strips; with `own` given, the border cells from the tile's own
// strips first.
CopyList halo_unpack_plan(const TileLayout& L, double* field, const double* const own[4],
                          const double* const neighbours[kNeighbourSlots]);

}  // namespace tdc
