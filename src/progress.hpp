// Progress lines for long runs: step, simulated time, ms per step and the estimated time left,
// printed at most every `every_s` seconds.
#pragma once
#include <cstdio>

namespace tdc {

class Progress {
 public:
  Progress(long steps, double dt, double every_s, bool enabled)
      : steps_(steps), dt_(dt), every_s_(every_s), enabled_(enabled) {}
  void update(long done, double elapsed_s) {
    if (!enabled_ || done <= 0 || elapsed_s - last_s_ < every_s_) return;
    last_s_ = elapsed_s;
    const double per_step = elapsed_s / done;
    std::printf("  step %ld/%ld  t = %.4g  %.3f ms/step  ETA %.0f s\n", done, steps_, done * dt_, 1e3 * per_step,
                per_step * (steps_ - done));
    std::fflush(stdout);
  }
  void finish(long steps, double elapsed_s) const {
    if (!enabled_) return;
    std::printf("  step %ld/%ld  t = %.4g  %.3f ms/step  done in %.2f s\n", steps, steps_, steps * dt_,
                1e3 * elapsed_s / steps, elapsed_s);
    std::fflush(stdout);
  }

 private:
  long steps_;
  double dt_, every_s_, last_s_ = 0;
  bool enabled_;
};

}  // namespace tdc
