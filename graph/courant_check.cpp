#include "courant_check.hpp"

#include <algorithm>

#include "../codelets/common/codelet.hpp"
#include "reductions.hpp"

namespace tdc {

StepCourantCheck::StepCourantCheck(const Decomposition& d, int rank, const MaxCourantArgs& args, int lag)
    : d_(d), rank_(rank), args_(args) {
  for (int s = 0; s <= lag; ++s) slots_.push_back(std::make_unique<TileVectors>(d, rank, 1));
}

void StepCourantCheck::submit(const TiledField* const vel[3], long step) {
  const TileVectors& slot = *slots_[step % long(slots_.size())];
  for (int t = 0; t < d_.tiles(); ++t) {
    const starpu_data_handle_t v[3] = {vel[0]->handle(t), vel[1]->handle(t), vel[2]->handle(t)};
    // The body priority: the step after next overwrites these velocities and waits for this task.
    insert_max_courant(args_, v, slot.handle(t), kPrioBody);
  }
}

double StepCourantCheck::local_max(long step) const {
  const TileVectors& slot = *slots_[step % long(slots_.size())];
  double m = 0.0;
  for (int t = 0; t < d_.tiles(); ++t) {
    if (d_.owner(t) != rank_) continue;
    starpu_data_acquire(slot.handle(t), STARPU_R);
    m = std::max(m, *static_cast<const double*>(starpu_data_handle_to_pointer(slot.handle(t), STARPU_MAIN_RAM)));
    starpu_data_release(slot.handle(t));
  }
  return m;
}

double StepCourantCheck::global_max(long step) const {
  double m = 0.0;
  read_tile_partials(d_, rank_, *slots_[step % long(slots_.size())],
                     [&](int, const double* v) { m = std::max(m, v[0]); });
  return m;
}

}  // namespace tdc
