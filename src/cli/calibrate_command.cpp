// `taskdycore calibrate [CASE]`: a short run of the case (default: Taylor-Green) as it would run,
// output included (its tasks are calibrated too), into a scratch directory removed afterwards, under
// STARPU_CALIBRATE=1 so that StarPU measures every task. StarPU wants 10
// measurements of a codelet per data size and worker kind before its history model counts; after this
// the case's step codelets have them, so later runs at this size schedule from calibrated models
// (kept per build and machine: `taskdycore info` names the directory).
#include "commands.hpp"
#include "common.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <cstdlib>
#include <string>

namespace tdc::cli {

int calibrate_command(int argc, char** argv, const std::string& case_file, std::vector<std::string> sets, int steps) {
  if (steps < 10) {
    std::fprintf(stderr, "taskdycore: error: --steps: at least 10 steps (StarPU's minimum of measurements), got %d\n",
                 steps);
    return 2;
  }
  setenv("STARPU_CALIBRATE", "1", 0);
  sets.push_back("time.steps=" + std::to_string(steps));  // last, so that it wins over a --set of time.steps
  const char* tmp = std::getenv("TMPDIR");
  const std::string out = std::string(tmp && *tmp ? tmp : "/tmp") + "/taskdycore-calibrate-" + std::to_string(getuid());
  const int status = run_command(argc, argv, case_file, sets, out, "", true, "");
  if (status == 0 && tdc::launcher_rank() == 0) {
    std::error_code ec;
    std::filesystem::remove_all(out, ec);
    std::printf("taskdycore: performance models calibrated on %d steps of %s\n", steps, case_file.c_str());
  }
  return status;
}

}  // namespace tdc::cli
