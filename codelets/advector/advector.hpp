// advector codelet: face Courant numbers from v^n and v^(n-1) on one tile (see advector_kernel.hpp).
#pragma once
#include <starpu.h>

#include "advector_kernel.hpp"

namespace tdc {

// vel: u, v, w, u_old, v_old, w_old; c: c1, c2, c3.
void insert_advector(const AdvectorArgs& a, const starpu_data_handle_t vel[6], const starpu_data_handle_t c[3],
                     int priority);

}  // namespace tdc
