// pressure_gradient and divergence codelets on one tile (see pressure_gradient_kernel.hpp).
#pragma once
#include <starpu.h>

#include "pressure_gradient_kernel.hpp"

namespace tdc {

void insert_pressure_gradient(const CentredArgs& a, starpu_data_handle_t p, const starpu_data_handle_t vel[3],
                              int priority);
// vel <- from - s G(p): the forced velocity written beside the one it is computed from (vel's ghost
// ring is left as it was, for a halo exchange to fill).
void insert_pressure_gradient_from(const CentredArgs& a, starpu_data_handle_t p, const starpu_data_handle_t from[3],
                                   const starpu_data_handle_t vel[3], int priority);
void insert_divergence(const CentredArgs& a, const starpu_data_handle_t vel[3], starpu_data_handle_t f, int priority);

}  // namespace tdc
