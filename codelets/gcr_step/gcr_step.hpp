// gcr_step codelets: the three fused kernels of a GCR(k) iteration on one tile (see
// gcr_step_kernel.hpp). `basis_p` / `basis_q` are the m directions kept since the last restart.
#pragma once
#include <starpu.h>

#include <vector>

#include "../column_operator/column_operator.hpp"

namespace tdc {

void insert_gcr_precon(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                       starpu_data_handle_t x, starpu_data_handle_t r, starpu_data_handle_t p_last,
                       starpu_data_handle_t q_last, starpu_data_handle_t e, starpu_data_handle_t scratch,
                       starpu_data_handle_t out, int priority);
void insert_gcr_apply(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                      starpu_data_handle_t e, starpu_data_handle_t ae, const std::vector<starpu_data_handle_t>& basis_q,
                      starpu_data_handle_t scratch, starpu_data_handle_t out, int priority);
void insert_gcr_direction(const EllipticTaskArgs& a, starpu_data_handle_t state, starpu_data_handle_t e,
                          starpu_data_handle_t r, starpu_data_handle_t p_new, starpu_data_handle_t q_new,
                          const std::vector<starpu_data_handle_t>& basis_p,
                          const std::vector<starpu_data_handle_t>& basis_q, starpu_data_handle_t scratch,
                          starpu_data_handle_t out, int priority);

}  // namespace tdc
