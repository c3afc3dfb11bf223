// Wall-clock time of a run's parts (stepping, output), the same clock for every model.
#pragma once
#include <chrono>

namespace tdc {

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

}  // namespace tdc
