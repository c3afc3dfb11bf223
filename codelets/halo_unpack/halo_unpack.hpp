// halo_unpack: fills a tile field's ghost ring from the strips its eight neighbours packed, and its
// own border cells from its own four strips (the border task of the step wrote them there).
#pragma once
#include <starpu.h>

#include "halo_unpack_plan.hpp"

namespace tdc {

void insert_halo_unpack(const TileLayout& L, starpu_data_handle_t field, const starpu_data_handle_t own[4],
                        const starpu_data_handle_t neighbours[kNeighbourSlots]);

}  // namespace tdc
