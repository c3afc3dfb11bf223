// Reproducible global reductions: per-tile compensated partials (tile_moments codelet), brought to
// rank 0 and combined there in tile order, so the result does not depend on the tile layout, the
// scheduler or the number of ranks.
#pragma once
#include "../codelets/tile_moments/tile_moments.hpp"
#include "../src/tiled_field.hpp"

namespace tdc {

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
