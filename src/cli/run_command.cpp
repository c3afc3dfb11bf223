// `taskdycore run CASE`: the case kind picks the command.
#include "commands.hpp"

#include <cstdio>

#include "../run/case_keys.hpp"
#include "common.hpp"

namespace tdc::cli {

int run_command(int argc, char** argv, const std::string& case_file, const std::vector<std::string>& sets,
                std::string out_dir, const std::string& trace_dir, bool force, const std::string& restart) {
  const bool root = tdc::launcher_rank() == 0;
  try {
    const std::string kind = tdc::case_kind(case_file, sets);
    if (kind == "elliptic") return elliptic_command(argc, argv, case_file, sets, out_dir, trace_dir, force, restart);
    if (kind == "dycore") return dycore_command(argc, argv, case_file, sets, out_dir, trace_dir, force, restart);
  } catch (const tdc::ConfigError& e) {
    if (root) std::fprintf(stderr, "taskdycore: error: %s\n", e.what());
    return 2;
  }
  return advection_command(argc, argv, case_file, sets, out_dir, trace_dir, force, restart);
}

}  // namespace tdc::cli
