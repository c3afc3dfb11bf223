// A dynamical-core run: the NFT steps as task graphs, asynchronous diagnostics every
// diagnostics.interval steps (kinetic energy, enstrophy, vorticity norms, max |D v|, Courant, the
// pressure solve, theta' budgets), field output, checkpoints and summary.json.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "dycore_config.hpp"
#include "../../graph/runtime/runtime.hpp"

namespace tdc {

// Returns the summary (complete on rank 0). `out_dir` empty: write nothing. `restart`: a checkpoint
// to resume from (check it first with check_dycore_restart). Writes diagnostics.csv (as records
// arrive), diagnostics.h5, fields.h5 + fields.xmf (asynchronously) and checkpoint.h5 into out_dir.
nlohmann::json run_dycore(const DycoreConfig& cfg, Runtime& rt, const std::string& out_dir, bool progress,
                          const std::string& restart = "");

// Checks that `path` is a checkpoint this configuration can resume (throws ConfigError naming the
// key or --restart), without reading the fields; before the runtime starts.
void check_dycore_restart(const DycoreConfig& cfg, const std::string& path);

}  // namespace tdc
