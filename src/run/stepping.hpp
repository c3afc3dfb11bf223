// The stepping loop every time-stepping model shares (advection, dycore): steps are submitted one at
// a time ahead of their execution (the model bounds the look-ahead window), in chunks that end at the
// next multiple of each active interval (diagnostics, field records, checkpoints) and, with several
// ranks, at least every `agree_every` steps. A SIGINT/SIGTERM ends the run at a step boundary: with one
// rank at once, with several at the chunk's end, where the ranks agree on it (graph/runtime/
// stop_request). Output, checkpoints and records are the model's, done at each chunk's end.
#pragma once
#include <functional>
#include <vector>

namespace tdc {

struct SteppingHooks {
  std::function<long()> step;                     // the model's current step
  std::function<void()> submit_step;              // submits one step
  std::function<void()> after_step;               // after each submitted step (progress lines); optional
  std::function<bool()> keep_going;               // false leaves the loop (an unstable flow); optional
  std::function<void(int stopped)> at_chunk_end;  // after the ranks agreed on a stop request (0: none)
};

class SteppingLoop {
 public:
  // Installs the SIGINT/SIGTERM handlers (from here on a signal is a request to stop).
  // `intervals`: the intervals (in steps) whose multiples end a chunk; 0 or less: not active.
  SteppingLoop(long last_step, long agree_every, std::vector<long> intervals);
  // Steps until `last_step`, a stop request or keep_going() false, and returns the agreed stop signal
  // (0: none). Collective over ranks.
  int run(const SteppingHooks& h, int rank, int ranks) const;

 private:
  long last_step_, agree_every_;
  std::vector<long> intervals_;
};

}  // namespace tdc
