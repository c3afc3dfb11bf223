#include "flow_diagnostics.hpp"

#include <algorithm>

#include "../codelets/common/codelet.hpp"
#include "../codelets/snapshot_copy/snapshot_copy.hpp"
#include "reductions.hpp"

namespace tdc {

struct AsyncFlowDiagnostics::Slot {
  Slot(const Decomposition& d, int rank, int state_doubles)
      : partials(d, rank, kFlowDoubles), state(rank, state_doubles) {
    for (int q = 0; q < 4; ++q) snapshot[q] = std::make_unique<TiledField>("flow_snapshot", d, rank, false);
  }
  std::unique_ptr<TiledField> snapshot[4];  // u, v, w, theta'
  TileVectors partials;
  RankZeroVector state;
  bool pending = false;
  long step = 0;
  double time = 0;
};

AsyncFlowDiagnostics::AsyncFlowDiagnostics(const Decomposition& d, int rank, const FlowDiagnosticsArgs& args,
                                           const EllipticSolver& solver, int slots)
    : d_(d), rank_(rank), args_(args), solver_(solver), scratch_(flow_diagnostics_scratch_size(d.layout())) {
  for (int s = 0; s < slots; ++s) slots_.push_back(std::make_unique<Slot>(d, rank, solver.state_size()));
}

AsyncFlowDiagnostics::~AsyncFlowDiagnostics() = default;

void AsyncFlowDiagnostics::submit(const TiledField* const vel[3], const TiledField* theta, long step, double time) {
  Slot& s = *slots_[next_];
  if (s.pending) collect(next_);
  FlowDiagnosticsArgs a = args_;
  a.with_theta = theta != nullptr;
  for (int t = 0; t < d_.tiles(); ++t) {
    // The copies are short and free the fields for the next steps: they run at the halo priority.
    for (int q = 0; q < 3; ++q) insert_snapshot_copy(vel[q]->handle(t), s.snapshot[q]->handle(t), kPrioHalo);
    if (theta) insert_snapshot_copy(theta->handle(t), s.snapshot[3]->handle(t), kPrioHalo);
    const FlowTileHandles in{s.snapshot[0]->handle(t), s.snapshot[1]->handle(t), s.snapshot[2]->handle(t),
                             s.snapshot[theta ? 3 : 2]->handle(t)};
    insert_flow_diagnostics(a, in, scratch_.handle(), s.partials.handle(t), kPrioDiagnostics);
  }
  solver_.submit_state_copy(s.state.handle(), kPrioHalo);
  s.pending = true;
  s.step = step;
  s.time = time;
  next_ = (next_ + 1) % int(slots_.size());
}

void AsyncFlowDiagnostics::collect(int slot) {
  Slot& s = *slots_[slot];
  FlowRecord r;
  r.step = s.step;
  r.time = s.time;
  read_tile_partials(d_, rank_, s.partials, [&](int t, const double* v) {
    const FlowTotals part = flow_totals_from(v);
    r.totals = t == 0 ? part : combine(r.totals, part);
  });
  r.solve = solver_.read_state_copy(s.state.handle());
  collected_.push_back(std::move(r));
  s.pending = false;
}

void AsyncFlowDiagnostics::collect_all() {
  for (int k = 0; k < int(slots_.size()); ++k) {  // oldest first
    const int slot = (next_ + k) % int(slots_.size());
    if (slots_[slot]->pending) collect(slot);
  }
}

std::vector<FlowRecord> AsyncFlowDiagnostics::take_collected() {
  std::vector<FlowRecord> out;
  out.swap(collected_);
  std::sort(out.begin(), out.end(), [](const FlowRecord& a, const FlowRecord& b) { return a.step < b.step; });
  return out;
}

}  // namespace tdc
