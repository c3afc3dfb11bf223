// The per-step Courant check of the dynamical core: after every step a max_courant task per tile
// (reading v^(n+1), beside the next step's tasks) writes the tile's largest Courant sum into a ring
// of slots; the host reads a slot `lag` steps later, when its tasks have long finished, so the check
// never waits on the step. Each rank reads only its own tiles (no transfer); the ranks then agree
// on stopping (graph/runtime/stop_request).
#pragma once
#include <memory>
#include <vector>

#include "../codelets/max_courant/max_courant.hpp"
#include "runtime/tiled_field.hpp"

namespace tdc {

class StepCourantCheck {
 public:
  StepCourantCheck(const Decomposition& d, int rank, const MaxCourantArgs& args, int lag);
  // Submits the check of the state after `step` (vel: u, v, w of that step).
  void submit(const TiledField* const vel[3], long step);
  // The largest Courant sum over this rank's tiles at `step` (+inf where a value is not finite);
  // `step` must be one of the last lag + 1 submitted.
  double local_max(long step) const;
  // Collective: the same over every tile, on rank 0 (other ranks get 0).
  double global_max(long step) const;

 private:
  const Decomposition& d_;
  int rank_;
  MaxCourantArgs args_;
  std::vector<std::unique_ptr<TileVectors>> slots_;
};

}  // namespace tdc
