// residual_dot codelets: a residual and its dot_partial sums in one task (see residual_dot_kernel.hpp).
#pragma once
#include <starpu.h>

#include "residual_dot_kernel.hpp"

namespace tdc {

// r <- r - state[scalar] q, then the partials of (r, r, r) into out.
void insert_residual_update_dot(const TileLayout& L, int skip_from, int scalar, starpu_data_handle_t state,
                                starpu_data_handle_t q, starpu_data_handle_t r, starpu_data_handle_t scratch,
                                starpu_data_handle_t out, int priority);
// r <- f - A u (u with a valid halo), then the partials of (r, r, r) into out.
void insert_elliptic_residual_dot(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                                  starpu_data_handle_t u, starpu_data_handle_t f, starpu_data_handle_t r,
                                  starpu_data_handle_t scratch, starpu_data_handle_t out, int priority);

}  // namespace tdc
