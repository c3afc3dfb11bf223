// The StarPU side of spectral_precon: insert helpers. A tile that is the whole domain is solved in
// place of its own arrays (one task); several tiles go through slabs and pieces (spectral_slabs.hpp),
// the same arithmetic per line pair, so the same bits for any tile layout.
#pragma once
#include <starpu.h>

#include <vector>

#include "../common/send_ahead.hpp"
#include "../common/tile_layout.hpp"
#include "../solver_scalars/solver_scalars_kernel.hpp"
#include "spectral_formulae.hpp"
#include "spectral_slabs.hpp"

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
// Several tiles, without a gather (spectral_slabs.hpp): stage s of a solve on a tile or a slab,
// reading `in` (the tile r, or the part's pieces) and writing `out` (pieces, or the tile z); scratch:
// the part's array, per worker, for stages that need one (stage_needs_scratch); buffer: the slab's
// array of the column flow (stages from or to it); send_ahead: the copies its end starts.
void insert_spectral_stage(const SpectralPlan& p, const SlabGeometry& g, const SpectralStage& s,
                           starpu_data_handle_t tables, starpu_data_handle_t state, starpu_data_handle_t scratch,
                           starpu_data_handle_t buffer, const std::vector<starpu_data_handle_t>& in,
                           const std::vector<starpu_data_handle_t>& out, int priority,
                           const SendAhead* send_ahead = nullptr);

}  // namespace tdc
