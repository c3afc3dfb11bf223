// halo_self: the halo exchange of fields decomposed into a single tile (periodic in x and y, so the
// tile is its own neighbour on every side): one task fills the ghost rings in place, where
// halo_pack + halo_unpack take two tasks and four strip handles a field. Same values either way.
#pragma once
#include <starpu.h>

#include <vector>

#include "halo_self_plan.hpp"

namespace tdc {

void insert_halo_self(const TileLayout& L, const std::vector<starpu_data_handle_t>& fields);

}  // namespace tdc
