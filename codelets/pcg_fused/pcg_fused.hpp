// pcg_fused codelets: the interleaved PCG kernels (see pcg_fused_kernel.hpp) on one tile.
#pragma once
#include <starpu.h>

#include "../column_operator/column_operator.hpp"

namespace tdc {

void insert_pcg_fused_precon(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                             starpu_data_handle_t r, starpu_data_handle_t q, starpu_data_handle_t z,
                             starpu_data_handle_t scratch, starpu_data_handle_t out, int priority);
void insert_pcg_fused_apply(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                            starpu_data_handle_t u, starpu_data_handle_t p, starpu_data_handle_t z,
                            starpu_data_handle_t q, starpu_data_handle_t scratch, starpu_data_handle_t out,
                            int priority);

}  // namespace tdc
