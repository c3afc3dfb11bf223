// halo_unpack: fills tile fields' ghost rings from the strips their eight neighbours packed, and, where
// the step's border task wrote a tile's border cells into its own four strips, those cells from them.
// Several fields of one tile go in one task.
#pragma once
#include <starpu.h>

#include <vector>

#include "halo_unpack_plan.hpp"

namespace tdc {

// A tile field (block handle), its own four strips (null where they were packed from the field, whose
// border is then current) and its neighbours' strips (vector handles).
struct UnpackedField {
  starpu_data_handle_t field;
  const starpu_data_handle_t* own;
  starpu_data_handle_t neighbours[kNeighbourSlots];
};

// Submits the unpacks of `fields` (tiles of one layout) as one task.
void insert_halo_unpack(const TileLayout& L, const std::vector<UnpackedField>& fields);

}  // namespace tdc
