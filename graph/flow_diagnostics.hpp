// Asynchronous diagnostics of the dynamical core: every N steps u, v, w (and theta') are copied
// into snapshots (short tasks at the halo priority) together with the pressure solver's state, and
// flow_diagnostics runs on the snapshots at the lowest priority, on whichever worker is idle. Slots
// rotate through a ring; a slot is collected (tiles combined in tile order on rank 0, so records do
// not depend on tiles, scheduler or ranks) only when it is about to be reused, or at the end.
#pragma once
#include <memory>
#include <vector>

#include "../codelets/flow_diagnostics/flow_diagnostics.hpp"
#include "runtime/tiled_field.hpp"
#include "elliptic_solver.hpp"

namespace tdc {

struct FlowRecord {
  long step = 0;
  double time = 0;
  FlowTotals totals{};  // rank 0 (zeros elsewhere)
  SolveResult solve;    // the latest pressure solve before the record (every rank)
};

class AsyncFlowDiagnostics {
 public:
  AsyncFlowDiagnostics(const Decomposition& d, int rank, const FlowDiagnosticsArgs& args, const EllipticSolver& solver,
                       int slots = 3);
  ~AsyncFlowDiagnostics();
  // Collective. Submits the diagnostics of the state of `step` (theta null without theta'); collects
  // the slot it reuses first.
  void submit(const TiledField* const vel[3], const TiledField* theta, long step, double time);
  // Collective: collects every pending slot.
  void collect_all();
  // The records collected so far, in step order (taken: the next call returns only newer ones).
  std::vector<FlowRecord> take_collected();

 private:
  struct Slot;
  void collect(int slot);

  const Decomposition& d_;
  int rank_;
  FlowDiagnosticsArgs args_;
  const EllipticSolver& solver_;
  std::vector<std::unique_ptr<Slot>> slots_;
  int next_ = 0;
  ScratchBuffer scratch_;
  std::vector<FlowRecord> collected_;
};

}  // namespace tdc
