// absorber codelets on one tile (see absorber_kernel.hpp).
#pragma once
#include <starpu.h>

#include "absorber_kernel.hpp"

namespace tdc {

// dst (RW) relaxed with the rate of `env` from src (R, psi^n).
void insert_absorber(const AbsorberArgs& a, starpu_data_handle_t env, starpu_data_handle_t src,
                     starpu_data_handle_t dst, int priority);
// psi (RW) relaxed in place (theta').
void insert_absorber_in_place(const AbsorberArgs& a, starpu_data_handle_t env, starpu_data_handle_t psi, int priority);

}  // namespace tdc
