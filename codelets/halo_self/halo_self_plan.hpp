// The plain halo_self kernel: a tile that is its own neighbour on every side (one tile across a
// periodic domain) fills its ghost ring from its own interior, the periodic images, with no strips.
// It writes exactly what halo_pack + halo_unpack would, in one pass (no StarPU here).
#pragma once
#include "../common/strided_copy.hpp"

namespace tdc {

// The eight copies (four edges, four corners) of the ghost ring of `field`; needs nx, ny >= halo.
CopyList halo_self_plan(const TileLayout& L, double* field);

}  // namespace tdc
