// Send-ahead: a task's outputs start toward the GPUs that read them next the moment the task ends.
//
// StarPU moves a task's inputs once the task is pushed, that is once all its dependencies have ended;
// a task that waits for something else as well (the spectral pass of chunk c, which also writes what
// the pass of chunk c - 1 wrote) then waits for its inputs after that too. fetch_ahead tasks start
// the copies earlier, but as tasks of the reading GPU: their copies begin only when that GPU's worker
// takes them, behind the work it already holds (on two H200s the pieces of a transpose started
// 0.12 ms after they were written). Here the writing task's callback asks StarPU for the copies
// (starpu_data_fetch_on_node, asynchronous, which StarPU allows in a callback): they start within
// the writing worker's next turn. Only between the GPUs of one rank; copies between ranks are
// StarPU-MPI's, which sends data as soon as it is written.
#pragma once
#include <starpu.h>

#include <utility>
#include <vector>

namespace tdc {

// TASKDYCORE_SEND_AHEAD: "auto" (the default: where a rank drives two GPUs or more) or "off".
bool send_ahead_allowed();  // the switch (a bad value throws std::invalid_argument)
bool send_ahead_enabled();  // whether this run sends ahead (StarPU running)

// The copies one task's end starts: each output handle toward the memory node of the task that reads
// it next. Lives as long as the tasks that use it (its address is their callback's argument).
class SendAhead {
 public:
  // Copy `data` to where `reader` lives (its home GPU), where that is another GPU of this rank.
  void add(starpu_data_handle_t data, starpu_data_handle_t reader);
  bool empty() const { return copies_.empty(); }
  // The callback: `arg` is a SendAhead.
  static void start(void* arg);

 private:
  std::vector<std::pair<starpu_data_handle_t, unsigned>> copies_;
};

}  // namespace tdc
