// pcg_line codelets: the line-preconditioned PCG iteration in two tasks per tile, or a single tile's
// iterations as one task (see pcg_line_kernel.hpp).
#pragma once
#include <starpu.h>

#include "../column_operator/column_operator.hpp"
#include "../solver_scalars/solver_scalars_kernel.hpp"

namespace tdc {

// Several tiles or ranks: a solver_scalars task follows each of these per-tile tasks, and the tiles
// read their ghost rings (z's exchanged before the direction step).
// r -= alpha A p (A p as the direction step stored it), z = M^-1 r; out: <r, r>, <r, z>, max |r|.
void insert_pcg_line_step(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                          starpu_data_handle_t ap, starpu_data_handle_t r, starpu_data_handle_t z,
                          starpu_data_handle_t scratch, starpu_data_handle_t out, int priority);
// u's pending updates (every second iteration: line_u_update, which reads the direction before p from
// p_next first); p_next = z + beta p (also on the ghost ring's edges); A p_next (interior);
// out: <p_next, A p_next>.
void insert_pcg_line_direction(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                               starpu_data_handle_t u, starpu_data_handle_t p, starpu_data_handle_t z,
                               starpu_data_handle_t p_next, starpu_data_handle_t ap_next, starpu_data_handle_t scratch,
                               starpu_data_handle_t out, int priority);
// `count` iterations (step, scalars, direction, scalars each) of a single tile on one rank, periodic, as
// one task: p alternates between direction0 and direction1, starting in direction<parity>.
void insert_pcg_line_iterations(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                                starpu_data_handle_t u, starpu_data_handle_t direction0,
                                starpu_data_handle_t direction1, starpu_data_handle_t ap, starpu_data_handle_t r,
                                starpu_data_handle_t z, starpu_data_handle_t scratch, starpu_data_handle_t out,
                                int priority, const ScalarsArgs& after_step, const ScalarsArgs& after_direction,
                                int parity, int count);

}  // namespace tdc
