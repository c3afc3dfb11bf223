// residual_max codelet: the direct solve's check of a tile (see residual_max_kernel.hpp).
#pragma once
#include <starpu.h>

#include "residual_max_kernel.hpp"

namespace tdc {

// max |f| and max |f - A u| of the tile into out (a partial of 2 doubles at least).
void insert_elliptic_residual_max(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t u,
                                  starpu_data_handle_t f, starpu_data_handle_t out, int priority);

}  // namespace tdc
