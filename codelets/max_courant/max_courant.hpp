// max_courant: a tile's largest Courant sum into one double (a TileVectors entry), every step, so
// that a flow past time.max_courant or holding a NaN is seen the step it happens. It only reads the
// velocity and runs at the diagnostics' priority, off the step's critical path.
#pragma once
#include <starpu.h>

#include "max_courant_kernel.hpp"

namespace tdc {

void insert_max_courant(const MaxCourantArgs& a, const starpu_data_handle_t vel[3], starpu_data_handle_t out,
                        int priority);

}  // namespace tdc
