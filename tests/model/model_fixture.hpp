// Runs small advection cases in-process (no output files) and returns their summary.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/advection/advection_run.hpp"

namespace tdc_test {

extern tdc::Runtime* g_runtime;

inline nlohmann::json run_case(const std::string& toml, const std::vector<std::string>& sets = {}) {
  const tdc::AdvectionConfig cfg = tdc::parse_config(toml, sets);
  tdc::check_courant(cfg);
  return tdc::run_advection(cfg, *g_runtime, tdc::RunOptions{"", false});
}

}  // namespace tdc_test
