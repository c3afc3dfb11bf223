// GoogleTest main for tests that run the model through StarPU: one runtime for the whole binary.
#include <gtest/gtest.h>

#include "model_fixture.hpp"

tdc::Runtime* tdc_test::g_runtime = nullptr;

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  tdc::Runtime rt(&argc, &argv, tdc::RuntimeOptions{"dmdas", ""});
  tdc_test::g_runtime = &rt;
  return RUN_ALL_TESTS();
}
