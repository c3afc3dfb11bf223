#include "spectral_precon.hpp"

#include <starpu_mpi.h>

#include <algorithm>
#include <stdexcept>

#include "../codelets/common/codelet.hpp"
#include "../codelets/spectral_precon/spectral_precon.hpp"
#include "../codelets/spectral_precon/spectral_precon_kernel.hpp"

namespace tdc {

SpectralPreconditioner::SpectralPreconditioner(const Decomposition& d, int rank, const ColumnCouplings& h,
                                               const std::vector<double>& coef)
    : d_(d) {
  const TileLayout& L = d.layout();
  std::vector<double> tables;
  plan_ = make_spectral_plan(L.nx * d.tiles_x(), L.ny * d.tiles_y(), L.nz, h, coef, tables);
  tables_ = std::make_unique<RankZeroVector>(rank, tables);
  if (one_task()) return;
  if (L.nx < 2 || L.ny < 2)  // a vertical line pair (i, i + 1) must lie in one tile
    throw std::invalid_argument("spectral preconditioner: tiles must be at least 2 cells wide in x and y");
  slabs_ = SlabGeometry{d.tiles_x(), d.tiles_y(), L.nx, L.ny, L.nz, std::min({d.tiles(), L.nz, kMaxSlabPieces})};
  if (d.tiles() > kMaxSlabPieces)
    throw std::invalid_argument("spectral preconditioner: more than " + std::to_string(kMaxSlabPieces) + " tiles");
  // Slab s is held with tile s T / S: with one slab per tile, every device transforms its share.
  std::vector<int> tile_of, slab_host;
  std::vector<long> doubles;
  for (int t = 0; t < d.tiles(); ++t)
    for (int s = 0; s < slabs_.slabs; ++s) {
      tile_of.push_back(t);
      slab_host.push_back(int(long(s) * d.tiles() / slabs_.slabs));
      doubles.push_back(slabs_.piece_doubles(s));
    }
  to_slabs_ = std::make_unique<TileHeldVectors>(d, tile_of, doubles);
  from_slabs_ = std::make_unique<TileHeldVectors>(d, slab_host, doubles);
  long largest_slab = 0;
  for (int s = 0; s < slabs_.slabs; ++s) largest_slab = std::max(largest_slab, slabs_.slab_doubles(s));
  slab_scratch_ = std::make_unique<ScratchBuffer>(largest_slab * sizeof(double));
  column_scratch_ = std::make_unique<ScratchBuffer>(slabs_.column_doubles() * sizeof(double));
}

SpectralPreconditioner::~SpectralPreconditioner() { starpu_mpi_wait_for_all(MPI_COMM_WORLD); }

std::vector<starpu_data_handle_t> SpectralPreconditioner::pieces(const TileHeldVectors& v, int t, int s) const {
  std::vector<starpu_data_handle_t> h;  // t < 0: of every tile in slab s; s < 0: of every slab of tile t
  for (int a = t < 0 ? 0 : t; a < (t < 0 ? d_.tiles() : t + 1); ++a)
    for (int b = s < 0 ? 0 : s; b < (s < 0 ? slabs_.slabs : s + 1); ++b) h.push_back(v.handle(a * slabs_.slabs + b));
  return h;
}

void SpectralPreconditioner::submit(starpu_data_handle_t state, int skip_from, const TiledField& r,
                                    const TiledField& z) const {
  SpectralPlan p = plan_;
  p.skip_from = skip_from;
  const TileLayout& L = d_.layout();
  if (one_task()) {
    insert_spectral_solve(p, L, tables_->handle(), state, r.handle(0), z.handle(0), kPrioBody);
    return;
  }
  const SlabGeometry& g = slabs_;
  starpu_data_handle_t tab = tables_->handle();
  auto slab_steps = [&](SlabPasses passes) {
    for (int s = 0; s < g.slabs; ++s)
      insert_spectral_slab_step(g, slab_plan(p, g, s), s, passes, tab, state, slab_scratch_->handle(),
                                pieces(*to_slabs_, -1, s), pieces(*from_slabs_, -1, s), kPrioBody);
  };
  for (int t = 0; t < d_.tiles(); ++t)
    insert_spectral_pack_tile(g, p, L, state, r.handle(t), pieces(*to_slabs_, t, -1), kPrioBody);
  slab_steps(SlabPasses::Forward);
  for (int t = 0; t < d_.tiles(); ++t)
    insert_spectral_column_step(g, column_plan(p, g, t), tab, state, column_scratch_->handle(),
                                pieces(*from_slabs_, t, -1), pieces(*to_slabs_, t, -1), kPrioBody);
  slab_steps(SlabPasses::Back);
  for (int t = 0; t < d_.tiles(); ++t)
    insert_spectral_unpack_tile(g, p, L, state, pieces(*from_slabs_, t, -1), z.handle(t), kPrioBody);
}

void SpectralPreconditioner::submit_pcg_precon(starpu_data_handle_t state, int skip_from, const TiledField& q,
                                               const TiledField& r, const TiledField& z,
                                               starpu_data_handle_t dot_scratch, starpu_data_handle_t partials,
                                               const ScalarsArgs* then) const {
  if (!one_task()) throw std::logic_error("spectral preconditioner: submit_pcg_precon needs a single tile");
  SpectralPlan p = plan_;
  p.skip_from = skip_from;
  insert_spectral_pcg_precon(p, d_.layout(), tables_->handle(), state, q.handle(0), r.handle(0), z.handle(0),
                             dot_scratch, partials, kPrioBody, then);
}

}  // namespace tdc
