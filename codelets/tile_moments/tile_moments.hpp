// tile_moments codelet: submits the per-tile compensated moments (see tile_moments_kernel.hpp).
#pragma once
#include <starpu.h>

#include "tile_moments_kernel.hpp"

namespace tdc {

void insert_tile_moments(const TileLayout& L, starpu_data_handle_t psi, starpu_data_handle_t g,
                         starpu_data_handle_t scratch, starpu_data_handle_t out, int priority);
std::size_t tile_moments_scratch_bytes(const TileLayout& L);

}  // namespace tdc
