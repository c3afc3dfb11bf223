// pcg_fused codelets: the interleaved PCG kernels (see pcg_fused_kernel.hpp) on one tile.
#pragma once
#include <starpu.h>

#include "../column_operator/column_operator.hpp"
#include "../solver_scalars/solver_scalars_kernel.hpp"

namespace tdc {

// r = f - A u, p = q = 0 (pcg_start_cpu/cuda; u's halo exchanged before).
void insert_pcg_start(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t u,
                      starpu_data_handle_t f, starpu_data_handle_t r, starpu_data_handle_t p, starpu_data_handle_t q,
                      int priority);
// then: the solver_scalars step on this task's partial `out`, run inside the task, which then writes
// the state (a single tile on one rank: a task fewer); null: a separate solver_scalars task follows.
// z_periodic (apply): the tile is the whole horizontally periodic domain, and z's ghost ring is not
// filled (no halo exchange before it): neighbours are read at their periodic images.
void insert_pcg_fused_apply(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                            starpu_data_handle_t u, starpu_data_handle_t p, starpu_data_handle_t z,
                            starpu_data_handle_t q, starpu_data_handle_t scratch, starpu_data_handle_t out,
                            int priority, const ScalarsArgs* then = nullptr, bool z_periodic = false);

}  // namespace tdc
