// The copies between a multigrid level's tiles and the whole level on one tile, where the coarse
// levels run as one cycle on one device (graph/multigrid_precon.cpp): interiors only, every level.
// No StarPU.
#pragma once
#include "../common/strided_copy.hpp"

namespace tdc {

// Tile (tx, ty) of the level's tiles_x × tiles_y split, `tile` its layout, into its place in `whole`.
StridedCopy tile_into_whole(const TileLayout& tile, const double* src, int tx, int ty, const TileLayout& whole,
                            double* dst);
// Its part of `whole` back into tile (tx, ty).
StridedCopy whole_into_tile(const TileLayout& whole, const double* src, int tx, int ty, const TileLayout& tile,
                            double* dst);

}  // namespace tdc
