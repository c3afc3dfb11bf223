// elliptic_apply codelet: y = A x on one tile (see elliptic_apply_kernel.hpp).
#pragma once
#include <starpu.h>

#include "../column_operator/column_operator.hpp"

namespace tdc {

void insert_elliptic_apply(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                           starpu_data_handle_t x, starpu_data_handle_t y, int priority);

}  // namespace tdc
