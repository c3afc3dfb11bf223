// line_precon codelet: z = M^{-1} r on one tile (see line_precon_kernel.hpp).
#pragma once
#include <starpu.h>

#include "../column_operator/column_operator.hpp"

namespace tdc {

void insert_line_precon(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                        starpu_data_handle_t r, starpu_data_handle_t z, int priority);

}  // namespace tdc
