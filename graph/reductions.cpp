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
  read_tile_partials(d, rank, partials, [&](int t, const double* v) {
    const Moments m = moments_from(v);
    total = t == 0 ? m : combine(total, m);
  });
  return total;
}

Moments MomentsReduction::collect() { return collect_tile_moments(d_, rank_, partials_); }

}  // namespace tdc
