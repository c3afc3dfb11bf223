// The StarPU side of spectral_precon: insert helpers. A tile that is the whole domain is solved in
// place of its own arrays (one task); several tiles are gathered into one dense array, solved there,
// and scattered back (the same arithmetic, so the same bits for any tile layout).
#pragma once
#include <starpu.h>

#include "../common/tile_layout.hpp"
#include "../solver_scalars/solver_scalars_kernel.hpp"
#include "spectral_formulae.hpp"

namespace tdc {

// z = M r on a tile that is the whole domain.
void insert_spectral_solve(const SpectralPlan& p, const TileLayout& L, starpu_data_handle_t tables,
                           starpu_data_handle_t state, starpu_data_handle_t r, starpu_data_handle_t z, int priority);
// The fused PCG's preconditioner step (r <- r - alpha q, z = M r, dot_partial's partials) on such a
// tile; then: the solver_scalars step folded in (null: none).
void insert_spectral_pcg_precon(const SpectralPlan& p, const TileLayout& L, starpu_data_handle_t tables,
                                starpu_data_handle_t state, starpu_data_handle_t q, starpu_data_handle_t r,
                                starpu_data_handle_t z, starpu_data_handle_t dot_scratch, starpu_data_handle_t partials,
                                int priority, const ScalarsArgs* then);
// Several tiles: the interior of tile `src` (origin (i0, j0) in the domain) into the dense array, the
// dense array solved in place, and a tile's interior back from it.
void insert_spectral_gather(const SpectralPlan& p, const TileLayout& L, int i0, int j0, starpu_data_handle_t state,
                            starpu_data_handle_t src, starpu_data_handle_t dense, int priority);
void insert_spectral_solve_dense(const SpectralPlan& p, starpu_data_handle_t tables, starpu_data_handle_t state,
                                 starpu_data_handle_t dense, int priority);
void insert_spectral_scatter(const SpectralPlan& p, const TileLayout& L, int i0, int j0, starpu_data_handle_t state,
                             starpu_data_handle_t dense, starpu_data_handle_t dst, int priority);

}  // namespace tdc
