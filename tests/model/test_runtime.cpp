// The runtime's advice on worker counts (no StarPU needed).
#include <gtest/gtest.h>

#include "graph/runtime/runtime.hpp"

using namespace tdc;

// Measured on the GPU node (16 cores, one GPU): 15 CPU workers slowed CPU+GPU steps, 14 did not.
TEST(Runtime, WarnsWhenWorkersLeaveNoCoreBesideGpus) {
  EXPECT_NE(oversubscription_warning(15, 1, 16), "");
  EXPECT_NE(oversubscription_warning(15, 1, 16).find("STARPU_NCPU=14"), std::string::npos);
  EXPECT_EQ(oversubscription_warning(14, 1, 16), "");
  EXPECT_NE(oversubscription_warning(7, 2, 8), "");
  EXPECT_EQ(oversubscription_warning(5, 2, 8), "");
  // Without a GPU the ranks take all their cores on purpose (default_cpu_workers): no warning.
  EXPECT_EQ(oversubscription_warning(2, 0, 2), "");
  EXPECT_EQ(oversubscription_warning(16, 0, 16), "");
}
