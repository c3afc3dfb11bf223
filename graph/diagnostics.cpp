#include "diagnostics.hpp"

#include <starpu_mpi.h>

#include <algorithm>

#include "../codelets/common/codelet.hpp"
#include "../codelets/snapshot_copy/snapshot_copy.hpp"

namespace tdc {

AsyncDiagnostics::AsyncDiagnostics(const Decomposition& d, int rank, int slots)
    : d_(d), rank_(rank), slots_(slots), scratch_(tile_moments_scratch_bytes(d.layout())) {
  for (int s = 0; s < slots; ++s) {
    slots_[s].snapshot = std::make_unique<TiledField>("snapshot", d, rank, false);
    slots_[s].partials = std::make_unique<TileVectors>(d, rank, kMomentsDoubles);
  }
}

void AsyncDiagnostics::submit(const TiledField& psi, const TiledField& g, long step, double time) {
  Slot& s = slots_[next_];
  if (s.pending) collect(next_);
  for (int t = 0; t < d_.tiles(); ++t) {
    // The copy is short and frees psi for the next steps: it runs at the halo priority.
    insert_snapshot_copy(psi.handle(t), s.snapshot->handle(t), kPrioHalo);
    insert_tile_moments(d_.layout(), s.snapshot->handle(t), g.handle(t), scratch_.handle(), s.partials->handle(t),
                        kPrioDiagnostics);
  }
  s.pending = true;
  s.step = step;
  s.time = time;
  next_ = (next_ + 1) % int(slots_.size());
}

void AsyncDiagnostics::collect(int slot) {
  Slot& s = slots_[slot];
  Moments total{};
  for (int t = 0; t < d_.tiles(); ++t) {
    starpu_mpi_get_data_on_node(MPI_COMM_WORLD, s.partials->handle(t), 0);
    if (rank_ != 0) continue;
    starpu_data_acquire(s.partials->handle(t), STARPU_R);
    const Moments m = moments_from(static_cast<const double*>(starpu_data_get_local_ptr(s.partials->handle(t))));
    starpu_data_release(s.partials->handle(t));
    total = t == 0 ? m : combine(total, m);  // tile order: reproducible
  }
  collected_.push_back({s.step, s.time, total});
  s.pending = false;
}

void AsyncDiagnostics::collect_all() {
  for (int k = 0; k < int(slots_.size()); ++k) {  // oldest first
    const int slot = (next_ + k) % int(slots_.size());
    if (slots_[slot].pending) collect(slot);
  }
}

std::vector<DiagnosticRecord> AsyncDiagnostics::take_collected() {
  std::vector<DiagnosticRecord> out;
  out.swap(collected_);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.step < b.step; });
  return out;
}

}  // namespace tdc
