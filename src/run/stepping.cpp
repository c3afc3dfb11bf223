#include "stepping.hpp"

namespace tdc {

SteppingLoop::SteppingLoop(long last_step, std::vector<long> intervals)
    : last_step_(last_step), intervals_(std::move(intervals)) {
  install_stop_handlers();
}

AgreedStop SteppingLoop::run(const SteppingHooks& h, int rank, int ranks) const {
  AgreedStop stop;
  // Every step posts this rank's word; the ranks agree on the words of kStopLag steps before.
  StopAgreement agreement(rank, ranks, kStopLag);
  while (h.step() < last_step_ && (!h.keep_going || h.keep_going())) {
    h.submit_step();
    if (h.after_step) h.after_step();
    const bool unstable = h.unstable_here && h.unstable_here();
    stop = agreement.post(unstable, h.checked_step ? h.checked_step() : h.step());
    if (stop.unstable) break;  // a flow past its limits: no more output from it
    bool chunk_end = stop.signal != 0 || h.step() == last_step_;
    for (long every : intervals_) chunk_end = chunk_end || (every > 0 && h.step() % every == 0);
    if (chunk_end) h.at_chunk_end(stop.signal);
    if (stop.signal) break;
  }
  // The words still pending (over ranks, those of the last kStopLag steps).
  const AgreedStop late = agreement.finish();
  return stop.any() ? stop : late;
}

}  // namespace tdc
