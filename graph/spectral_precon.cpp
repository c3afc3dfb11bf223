#include "spectral_precon.hpp"

#include <starpu_mpi.h>

#include <stdexcept>

#include "../codelets/common/codelet.hpp"
#include "../codelets/common/tile_placement.hpp"
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
  if (!one_task()) {
    dense_ = std::make_unique<RankZeroVector>(rank, plan_.nx * plan_.ny * plan_.nz);
    place_hub_data(dense_->handle());  // the tiles travel to the dense array's GPU, not it to theirs
  }
}

SpectralPreconditioner::~SpectralPreconditioner() {
  starpu_mpi_wait_for_all(MPI_COMM_WORLD);
  if (dense_) forget_tile_data(dense_->handle());
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
  for (int t = 0; t < d_.tiles(); ++t)
    insert_spectral_gather(p, L, d_.origin_x(t), d_.origin_y(t), state, r.handle(t), dense_->handle(), kPrioBody);
  insert_spectral_solve_dense(p, tables_->handle(), state, dense_->handle(), kPrioBody);
  for (int t = 0; t < d_.tiles(); ++t)
    insert_spectral_scatter(p, L, d_.origin_x(t), d_.origin_y(t), state, dense_->handle(), z.handle(t), kPrioBody);
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
