// buoyancy codelet on one tile (see buoyancy_kernel.hpp).
#pragma once
#include <starpu.h>

#include "buoyancy_kernel.hpp"

namespace tdc {

void insert_buoyancy(const BuoyancyArgs& a, starpu_data_handle_t theta, starpu_data_handle_t w, int priority);

}  // namespace tdc
