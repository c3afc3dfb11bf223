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
  if (L.nx < 2 || L.ny < 2)  // a line pair (i, i + 1) or (j, j + 1) must lie in one tile
    throw std::invalid_argument("spectral preconditioner: tiles must be at least 2 cells wide in x and y");
  if (d.tiles() > kMaxSlabPieces)
    throw std::invalid_argument("spectral preconditioner: more than " + std::to_string(kMaxSlabPieces) + " tiles");
  slabs_ = slab_geometry(plan_.nx, plan_.ny, plan_.nz, d.tiles_x(), d.tiles_y());
  // Slab s is held with tile s T / S: with one slab per tile, every device transforms its share.
  std::vector<int> tile_of, slab_host;
  std::vector<long> doubles;
  for (int t = 0; t < d.tiles(); ++t)
    for (int s = 0; s < slabs_.slabs; ++s) {
      tile_of.push_back(t);
      slab_host.push_back(int(long(s) * d.tiles() / slabs_.slabs));
      doubles.push_back(slabs_.piece(t, s).cells());
    }
  to_slabs_ = std::make_unique<TileHeldVectors>(d, tile_of, doubles);
  from_slabs_ = std::make_unique<TileHeldVectors>(d, slab_host, doubles);
  long slab = 0;
  for (int s = 0; s < slabs_.slabs; ++s) slab = std::max(slab, slabs_.slab(s).cells());
  slab_scratch_ = std::make_unique<ScratchBuffer>(slab * sizeof(double));
  bool tile_stages_need_scratch = false;  // not where the tile's pass writes and reads the pieces themselves
  for (int n = 0; n < spectral_stage_count(slabs_); n += 2)
    tile_stages_need_scratch |= stage_needs_scratch(slabs_, spectral_stage(slabs_, L, n, 0));
  if (tile_stages_need_scratch)
    tile_scratch_ = std::make_unique<ScratchBuffer>(slabs_.tile(0).cells() * sizeof(double));
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
  // Tile stages read r or the slabs' pieces and write the tiles' pieces or z; slab stages read the
  // tiles' pieces and write the slabs'.
  for (int n = 0; n < spectral_stage_count(slabs_); ++n) {
    const bool on_slab = n % 2 == 1;
    for (int i = 0; i < (on_slab ? slabs_.slabs : d_.tiles()); ++i) {
      const SpectralStage s = spectral_stage(slabs_, L, n, i);
      const auto in = s.from_tile ? std::vector<starpu_data_handle_t>{r.handle(i)}
                      : on_slab   ? pieces(*to_slabs_, -1, i)
                                  : pieces(*from_slabs_, i, -1);
      const auto out = s.to_tile ? std::vector<starpu_data_handle_t>{z.handle(i)}
                       : on_slab ? pieces(*from_slabs_, -1, i)
                                 : pieces(*to_slabs_, i, -1);
      const auto& scratch = on_slab ? slab_scratch_ : tile_scratch_;
      insert_spectral_stage(p, slabs_, s, tables_->handle(), state, scratch ? scratch->handle() : nullptr, in, out,
                            kPrioBody);
    }
  }
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
