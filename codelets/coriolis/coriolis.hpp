// coriolis codelet on one tile (see coriolis_kernel.hpp).
#pragma once
#include <starpu.h>

#include "coriolis_kernel.hpp"

namespace tdc {

// now: u^n, v^n (R); old: u^(n-1), v^(n-1) (R); forced: u~, v~ (RW).
void insert_coriolis(const CoriolisArgs& a, const starpu_data_handle_t now[2], const starpu_data_handle_t old[2],
                     const starpu_data_handle_t forced[2], int priority);

}  // namespace tdc
