// Reproducible global reductions: per-tile compensated partials (tile_moments codelet), brought to
// rank 0 and combined there in tile order, so the result does not depend on the tile layout, the
// scheduler or the number of ranks.
#pragma once
#include "../codelets/tile_moments/tile_moments.hpp"
#include "runtime/tiled_field.hpp"

#include <starpu_mpi.h>

#include <memory>

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

// A chain of dependent global reductions built as the Krylov solvers build theirs (`bench reduction`):
// a round is one dot_partial task per tile (<r, r> and <r, z> into the tile's partial vector, reading
// the solver state) and one solver_scalars task (GcrResidual) that combines every tile's partial, in
// tile order, into the state on rank 0; the next round's dot tasks read that state, so each round
// waits for the previous reduction. The state is reset to tolerances 0 and no iteration limit: it
// never finishes, and every task does its work.
class ReductionChain {
 public:
  // r = 1 and z = 2 on every cell; a state of as many doubles as a solve of `solver_max_iter`
  // iterations carries (it travels between ranks each round).
  ReductionChain(const Decomposition& d, int rank, int solver_max_iter);
  ~ReductionChain();
  ReductionChain(const ReductionChain&) = delete;
  ReductionChain& operator=(const ReductionChain&) = delete;
  // A fresh state (one task on rank 0).
  void submit_reset();
  // `rounds` rounds; combine = false: the dot tasks alone, each round reading the state unchanged
  // (no reduction between rounds: only a tile's own rounds are ordered, by its partial vector).
  void submit_rounds(int rounds, bool combine);
  // Collective: ||r|| as the latest combine recorded it, on every rank (waits for it).
  double recorded_norm();
  int state_size() const { return state_size_; }

 private:
  const Decomposition& d_;
  int state_size_;
  std::unique_ptr<TiledField> r_, z_;
  std::unique_ptr<TileVectors> partials_;
  std::unique_ptr<RankZeroVector> state_;
  std::unique_ptr<ScratchBuffer> scratch_;
};

}  // namespace tdc
