// Progress lines for long runs: step, simulated time, ms per step and the estimated time left,
// printed at most every `every_s` seconds.
#pragma once
#include <algorithm>
#include <cstdio>

namespace tdc {

class Progress {
 public:
  // Steps first..last (a restarted run starts after 0).
  Progress(long first, long last, double dt, double every_s, bool enabled)
      : first_(first), steps_(last), dt_(dt), every_s_(every_s), enabled_(enabled) {}
  void update(long step, double elapsed_s) {
    const long done = step - first_;
    if (!enabled_ || done <= 0 || elapsed_s - last_s_ < every_s_) return;
    last_s_ = elapsed_s;
    const double per_step = elapsed_s / done;
    std::printf("  step %ld/%ld  t = %.4g  %.3f ms/step  ETA %.0f s\n", step, steps_, step * dt_, 1e3 * per_step,
                per_step * (steps_ - step));
    std::fflush(stdout);
  }
  void finish(long step, double elapsed_s) const {
    if (!enabled_) return;
    const long done = std::max(1L, step - first_);
    std::printf("  step %ld/%ld  t = %.4g  %.3f ms/step  done in %.2f s\n", step, steps_, step * dt_,
                1e3 * elapsed_s / done, elapsed_s);
    std::fflush(stdout);
  }

 private:
  long first_, steps_;
  double dt_, every_s_, last_s_ = 0;
  bool enabled_;
};

}  // namespace tdc
