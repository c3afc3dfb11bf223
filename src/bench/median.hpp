// The median of a benchmark's repeated timings (the upper middle one of an even count): what every
// `taskdycore bench` and tools/link_bench report, so that one slow repeat does not move the figure.
#pragma once
#include <algorithm>
#include <vector>

namespace tdc {

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace tdc
