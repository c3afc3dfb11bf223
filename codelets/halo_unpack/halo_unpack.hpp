// halo_unpack: fills tile fields' ghost rings from the strips their eight neighbours packed, and their
// own border cells from their own four strips (the border task of the step wrote them there). Several
// fields of one tile go in one task.
#pragma once
#include <starpu.h>

#include <vector>

#include "halo_unpack_plan.hpp"

namespace tdc {

// A tile field (block handle), its own four strips and its neighbours' strips (vector handles).
struct UnpackedField {
  starpu_data_handle_t field;
  const starpu_data_handle_t* own;
  starpu_data_handle_t neighbours[kNeighbourSlots];
};

// Submits the unpacks of `fields` (tiles of one layout) as one task.
void insert_halo_unpack(const TileLayout& L, const std::vector<UnpackedField>& fields);

}  // namespace tdc
