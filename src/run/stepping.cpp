#include "stepping.hpp"

#include <algorithm>

#include "../../graph/runtime/stop_request.hpp"

namespace tdc {

SteppingLoop::SteppingLoop(long last_step, long agree_every, std::vector<long> intervals)
    : last_step_(last_step), agree_every_(agree_every), intervals_(std::move(intervals)) {
  install_stop_handlers();
}

int SteppingLoop::run(const SteppingHooks& h, int rank, int ranks) const {
  int stopped = 0;
  while (h.step() < last_step_ && (!h.keep_going || h.keep_going()) && !stopped) {
    long chunk_end = std::min(last_step_, h.step() + agree_every_);
    for (long every : intervals_)
      if (every > 0) chunk_end = std::min(chunk_end, (h.step() / every + 1) * every);
    while (h.step() < chunk_end) {
      h.submit_step();
      if (h.after_step) h.after_step();
      if (ranks == 1 && stop_signal()) break;
    }
    stopped = agreed_stop_signal(rank, ranks);
    h.at_chunk_end(stopped);
  }
  return stopped;
}

}  // namespace tdc
