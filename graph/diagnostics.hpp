// Asynchronous diagnostics: every N steps the field is copied into a snapshot (a short task), and
// the budgets of the snapshot (tile_moments, compensated and in a fixed order) are computed at the
// lowest priority. Snapshots rotate through a ring of slots; a slot's results are collected only
// when it is about to be reused (or at the end). With diagnostics every few steps they are long
// done by then; with diagnostics every step the host may wait for the oldest one (measured cost in
// docs/performance.md).
#pragma once
#include <memory>
#include <vector>

#include "../codelets/tile_moments/tile_moments.hpp"
#include "runtime/tiled_field.hpp"

namespace tdc {

struct DiagnosticRecord {
  long step;
  double time;
  Moments moments;  // of psi weighted by G (no cell volume)
};

class AsyncDiagnostics {
 public:
  AsyncDiagnostics(const Decomposition& d, int rank, int slots = 4);
  // Submits the diagnostics of `psi` (the state of `step`); collects the slot it reuses first.
  void submit(const TiledField& psi, const TiledField& g, long step, double time);
  // Collective: the records collected so far, in step order (rank 0; others get steps only).
  std::vector<DiagnosticRecord> take_collected();
  // Collective: collects every pending slot.
  void collect_all();

 private:
  void collect(int slot);
  struct Slot {
    std::unique_ptr<TiledField> snapshot;
    std::unique_ptr<TileVectors> partials;
    bool pending = false;
    long step = 0;
    double time = 0;
  };
  const Decomposition& d_;
  int rank_;
  std::vector<Slot> slots_;
  int next_ = 0;
  ScratchBuffer scratch_;
  std::vector<DiagnosticRecord> collected_;
};

}  // namespace tdc
