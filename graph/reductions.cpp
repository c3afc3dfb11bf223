#include "reductions.hpp"

#include <starpu_mpi.h>

namespace tdc {

MomentsReduction::MomentsReduction(const Decomposition& d, int rank)
    : d_(d), rank_(rank), partials_(d, rank, kMomentsDoubles), scratch_(tile_moments_scratch_bytes(d.layout())) {}

void MomentsReduction::submit(const TiledField& psi, const TiledField& g, int priority) {
  for (int t = 0; t < d_.tiles(); ++t)
    insert_tile_moments(d_.layout(), psi.handle(t), g.handle(t), scratch_.handle(), partials_.handle(t), priority);
}

Moments collect_tile_moments(const Decomposition& d, int rank, const TileVectors& partials) {
  Moments total{};
  for (int t = 0; t < d.tiles(); ++t) {
    starpu_mpi_get_data_on_node(MPI_COMM_WORLD, partials.handle(t), 0);
    if (rank != 0) continue;
    starpu_data_acquire(partials.handle(t), STARPU_R);
    const Moments m = moments_from(static_cast<const double*>(starpu_data_handle_to_pointer(partials.handle(t), STARPU_MAIN_RAM)));
    starpu_data_release(partials.handle(t));
    total = t == 0 ? m : combine(total, m);
  }
  return total;
}

Moments MomentsReduction::collect() { return collect_tile_moments(d_, rank_, partials_); }

}  // namespace tdc
