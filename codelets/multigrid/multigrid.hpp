// multigrid codelets: the tasks of a V-cycle on one tile (see multigrid_kernel.hpp). All of them read
// the solver state and return at once when the solve has finished (the skip protocol of the solvers).
#pragma once
#include <starpu.h>

#include <vector>

#include "../column_operator/column_operator.hpp"
#include "../common/send_ahead.hpp"
#include "../solver_scalars/solver_scalars_kernel.hpp"
#include "multigrid_vcycle.hpp"

namespace tdc {

// z = M^{-1} r by one whole V-cycle on a single tile (its own periodic neighbour): `coef` holds every
// level's coefficients, `scratch` (STARPU_SCRATCH, plan.scratch_doubles) the coarse levels.
void insert_mg_vcycle(const VcyclePlan& plan, starpu_data_handle_t coef, starpu_data_handle_t state,
                      starpu_data_handle_t r, starpu_data_handle_t z, starpu_data_handle_t scratch, int priority);
// The fused PCG's step with the V-cycle as preconditioner (mg_pcg_precon_cpu/cuda): r <- r - alpha q,
// z = M^{-1} r, and <r, r>, <r, z>, max |r| into `partials` (dot_scratch: dot_partial's scratch).
// then: the solver_scalars step on those partials, run inside the task (which then writes the state).
void insert_mg_pcg_precon(const VcyclePlan& plan, starpu_data_handle_t coef, starpu_data_handle_t state,
                          starpu_data_handle_t q, starpu_data_handle_t r, starpu_data_handle_t z,
                          starpu_data_handle_t scratch, starpu_data_handle_t dot_scratch, starpu_data_handle_t partials,
                          int priority, const ScalarsArgs* then = nullptr);
// The whole level (one tile, `whole`) from the level's tiles (`tile` each, row-major over tiles_x
// columns of tiles), interiors only: tasks of up to STARPU_NMAXBUFS - 2 tiles.
void insert_mg_gather(const TileLayout& tile, int tiles_x, const TileLayout& whole, int skip_from,
                      starpu_data_handle_t state, const std::vector<starpu_data_handle_t>& tiles,
                      starpu_data_handle_t whole_field, int priority);
// Tile (tx, ty)'s part of the whole level into the tile, interior only.
void insert_mg_scatter(const TileLayout& whole, const TileLayout& tile, int tx, int ty, int skip_from,
                       starpu_data_handle_t state, starpu_data_handle_t whole_field, starpu_data_handle_t tile_field,
                       int priority);
// z = omega r / diag; with `strips` (z's four, halo_pack's), z's border packed into them in the same task,
// and `send` the strips' copies its end starts (send_ahead.hpp, or null).
void insert_mg_jacobi_first(const EllipticTaskArgs& a, double omega, starpu_data_handle_t coef,
                            starpu_data_handle_t state, starpu_data_handle_t r, starpu_data_handle_t z, int priority,
                            const starpu_data_handle_t* strips = nullptr, const SendAhead* send = nullptr);
// z_out = z_in + omega (r - A z_in) / diag (z_in's halo exchanged before).
void insert_mg_jacobi(const EllipticTaskArgs& a, double omega, starpu_data_handle_t coef, starpu_data_handle_t state,
                      starpu_data_handle_t r, starpu_data_handle_t z_in, starpu_data_handle_t z_out, int priority);
// r_coarse = R (r - A z) (a.L: the fine tile, `coarse` the coarse one; z's halo exchanged before).
void insert_mg_restrict_residual(const EllipticTaskArgs& a, const TileLayout& coarse, starpu_data_handle_t coef,
                                 starpu_data_handle_t state, starpu_data_handle_t r, starpu_data_handle_t z,
                                 starpu_data_handle_t r_coarse, int priority);
// z += P z_coarse (a.L: the fine tile, `coarse` the coarse one); `strips` and `send` as for jacobi_first.
void insert_mg_prolong_add(const EllipticTaskArgs& a, const TileLayout& coarse, starpu_data_handle_t state,
                           starpu_data_handle_t z_coarse, starpu_data_handle_t z, int priority,
                           const starpu_data_handle_t* strips = nullptr, const SendAhead* send = nullptr);

}  // namespace tdc
