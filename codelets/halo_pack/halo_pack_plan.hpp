// The plain halo_pack kernel: which boxes of a tile go into which strip (no StarPU here); the copies
// run through strided_copies_cpu / strided_copies_cuda.
#pragma once
#include "../common/strided_copy.hpp"

namespace tdc {

// Strips in Side order: West, East, South, North.
CopyList halo_pack_plan(const TileLayout& L, const double* field, double* const strips[4]);

}  // namespace tdc
