// The stepping loop every time-stepping model shares (advection, dycore): steps are submitted one at
// a time ahead of their execution (the model bounds the look-ahead window). After every step the
// ranks agree on whether to stop (graph/runtime/stop_request): a SIGINT/SIGTERM on any rank, or a
// flow that a rank's per-step check found unstable; so every rank stops after the same step. Over
// several ranks the agreement is kStopLag steps late (StopAgreement: no round trip between the
// ranks' hosts on the step's path); on one rank it is immediate. The
// model's output, checkpoints and records are done at chunk ends: the multiples of each active
// interval (diagnostics, field records, checkpoints), the last step and a stop by signal.
#pragma once
#include <functional>
#include <vector>

#include "../../graph/runtime/stop_request.hpp"

namespace tdc {

struct SteppingHooks {
  std::function<long()> step;                     // the model's current step
  std::function<void()> submit_step;              // submits one step
  std::function<void()> after_step;               // after each submitted step (progress lines); optional
  std::function<bool()> keep_going;               // false leaves the loop; the same on every rank; optional
  std::function<bool()> unstable_here;            // this rank's per-step check failed (agreed over ranks); optional
  std::function<long()> checked_step;             // the step that check judged (AgreedStop::checked_step); optional
  std::function<void(int stopped)> at_chunk_end;  // at a chunk end (stopped: the agreed signal, 0: none)
};

constexpr int kStopLag = 2;

class SteppingLoop {
 public:
  // Installs the SIGINT/SIGTERM handlers (from here on a signal is a request to stop).
  // `intervals`: the intervals (in steps) whose multiples end a chunk; 0 or less: not active.
  SteppingLoop(long last_step, std::vector<long> intervals);
  // Steps until `last_step`, keep_going() false, or an agreed stop, and returns the agreed stop (over
  // ranks also one of the last kStopLag steps' words, agreed after the loop). Collective over ranks.
  AgreedStop run(const SteppingHooks& h, int rank, int ranks) const;

 private:
  long last_step_;
  std::vector<long> intervals_;
};

}  // namespace tdc
