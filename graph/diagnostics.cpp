#include "diagnostics.hpp"

#include <starpu_mpi.h>

#include <algorithm>

#include "../codelets/common/codelet.hpp"
#include "../codelets/snapshot_copy/snapshot_copy.hpp"
#include "reductions.hpp"

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
  collected_.push_back({s.step, s.time, collect_tile_moments(d_, rank_, *s.partials)});
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
