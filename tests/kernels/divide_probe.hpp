// Runs BranchFreeDivide and a / b on the device over arrays of dividends and divisors (test helper).
#pragma once
#include <cstddef>
#include <vector>

namespace tdc_test {

struct DivideProbe {
  std::vector<double> fast, exact;
  std::vector<unsigned char> on_fast_path;
};
DivideProbe divide_on_device(const std::vector<double>& a, const std::vector<double>& b);

// a / b over a w x h x nz box through BranchFreeDivide, the cells off its fast path recorded in a
// fix-up list of `capacity` cells and recomputed by fixup_kernel; run `repeats` times over the same
// list (it must come back empty). Returns the quotients and the list's count after the last run.
struct FixupProbe {
  std::vector<double> q;
  unsigned count_after;
};
FixupProbe divide_with_fixup(const std::vector<double>& a, const std::vector<double>& b, int w, int h, int nz,
                             unsigned capacity, int repeats);

}  // namespace tdc_test
