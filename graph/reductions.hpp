// Reproducible global reductions: per-tile compensated partials (tile_moments codelet), brought to
// rank 0 and combined there in tile order, so the result does not depend on the tile layout, the
// scheduler or the number of ranks.
#pragma once
#include "../codelets/tile_moments/tile_moments.hpp"
#include "runtime/tiled_field.hpp"

#include <starpu_mpi.h>

namespace tdc {

// Collective: brings every tile's partial vector to rank 0 and calls read(t, values) there for each
// tile in tile order (the order that makes combined results independent of the layout).
template <class Read>
void read_tile_partials(const Decomposition& d, int rank, const TileVectors& partials, Read read) {
  for (int t = 0; t < d.tiles(); ++t) {
    starpu_mpi_get_data_on_node(MPI_COMM_WORLD, partials.handle(t), 0);
    if (rank != 0) continue;
    starpu_data_acquire(partials.handle(t), STARPU_R);
    read(t, static_cast<const double*>(starpu_data_handle_to_pointer(partials.handle(t), STARPU_MAIN_RAM)));
    starpu_data_release(partials.handle(t));
  }
}

// Collective: brings every tile's partial moments to rank 0 and combines them in tile order (the
// order that makes the result independent of the layout); other ranks get zeros.
Moments collect_tile_moments(const Decomposition& d, int rank, const TileVectors& partials);

class MomentsReduction {
 public:
  MomentsReduction(const Decomposition& d, int rank);
  // Submits the per-tile partials of psi weighted by g (asynchronous).
  void submit(const TiledField& psi, const TiledField& g, int priority);
  // Collective: waits for the partials, combines them on rank 0 (other ranks get zeros).
  Moments collect();

 private:
  const Decomposition& d_;
  int rank_;
  TileVectors partials_;
  ScratchBuffer scratch_;
};

}  // namespace tdc
