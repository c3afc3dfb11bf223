// A dynamical-core run: the NFT steps as task graphs, diagnostics every diagnostics.interval steps
// (kinetic energy, enstrophy, max |D v|, the pressure solve), diagnostics.csv and summary.json.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "dycore_config.hpp"
#include "runtime.hpp"

namespace tdc {

// Returns the summary (complete on rank 0). `out_dir` empty: write nothing.
nlohmann::json run_dycore(const DycoreConfig& cfg, Runtime& rt, const std::string& out_dir, bool progress);

}  // namespace tdc
