#include "field_tasks.hpp"

#include <starpu.h>

#include <algorithm>

#include "../codelets/snapshot_copy/snapshot_copy.hpp"

namespace tdc {

void submit_field_copy(const Decomposition& d, const TiledField& from, const TiledField& to, int priority) {
  for (int t = 0; t < d.tiles(); ++t) insert_snapshot_copy(from.handle(t), to.handle(t), priority);
}

void fill_owned_tiles(const Decomposition& d, TiledField& f, double value) {
  for (int t = 0; t < d.tiles(); ++t) {
    if (!f.owned(t)) continue;
    starpu_data_acquire(f.handle(t), STARPU_W);
    std::fill(f.host(t), f.host(t) + d.layout().size(), value);
    starpu_data_release(f.handle(t));
  }
}

void wait_for_submitted(unsigned window) { starpu_task_wait_for_n_submitted(window); }

}  // namespace tdc
