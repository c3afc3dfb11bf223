// The copies of the slab form's transposes (spectral_slabs.hpp), built on the host for the CPU and
// CUDA steps alike: between a tile and its pieces, a slab and its pieces, a column array and its
// pieces (to_pieces: from the array into the pieces, else back), and the views of the arrays.
#pragma once
#include <vector>

#include "../common/strided_copy.hpp"
#include "spectral_slabs.hpp"

namespace tdc {

std::vector<StridedCopy> tile_piece_copies(const SlabGeometry& g, const TileLayout& L, double* tile,
                                           double* const* pieces, bool to_pieces);
std::vector<StridedCopy> slab_piece_copies(const SlabGeometry& g, int s, double* slab, double* const* pieces,
                                           bool to_pieces);
std::vector<StridedCopy> column_piece_copies(const SlabGeometry& g, double* column, double* const* pieces,
                                             bool to_pieces);
// A slab as a dense (nxt tiles_x) x (nyt tiles_y) x levels array; a tile's columns as nxt x nyt x nz.
SpectralView slab_view(const SlabGeometry& g, double* slab);
SpectralView column_view(const SlabGeometry& g, double* column);

}  // namespace tdc
