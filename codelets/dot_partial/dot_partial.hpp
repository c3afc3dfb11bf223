// dot_partial codelet: a tile's compensated partials of <x, y> and <x, z> (see dot_partial_kernel.hpp).
#pragma once
#include <starpu.h>

#include "dot_partial_kernel.hpp"

namespace tdc {

void insert_dot_partial(const TileLayout& L, int skip_from, starpu_data_handle_t state, starpu_data_handle_t x,
                        starpu_data_handle_t y, starpu_data_handle_t z, starpu_data_handle_t scratch,
                        starpu_data_handle_t out, int priority);

}  // namespace tdc
