// `taskdycore info`: StarPU build, workers, devices and MPI ranks.
#include "commands.hpp"

#include <iostream>

#include "common.hpp"

namespace tdc::cli {

int info_command(int argc, char** argv) {
  tdc::Runtime rt(&argc, &argv, tdc::RuntimeOptions{});
  if (rt.rank() == 0) std::cout << tdc::runtime_info(rt);
  return 0;
}

}  // namespace tdc::cli
