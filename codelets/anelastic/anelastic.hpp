// mass_courant and mass_divergence codelets on one tile (see anelastic_kernel.hpp); `env` is the
// read-only vector of per-level profiles.
#pragma once
#include <starpu.h>

#include "anelastic_kernel.hpp"

namespace tdc {

void insert_mass_courant(const MassCourantArgs& a, starpu_data_handle_t env, const starpu_data_handle_t c[3],
                         int priority);
void insert_mass_divergence(const CentredArgs& a, starpu_data_handle_t env, const starpu_data_handle_t vel[3],
                            starpu_data_handle_t f, int priority);

}  // namespace tdc
