// halo_pack: copies the four border strips of a tile field (the interior cells its neighbours need)
// into four small strip handles, so only strips travel between devices and ranks.
#pragma once
#include <starpu.h>

#include "halo_pack_plan.hpp"

namespace tdc {

// Submits the pack of `field` (block handle) into `strips` (vector handles).
void insert_halo_pack(const TileLayout& L, starpu_data_handle_t field, const starpu_data_handle_t strips[4]);

}  // namespace tdc
