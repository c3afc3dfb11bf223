// A complete advection run: fields on tiles, the initial halo exchange, the stepping loop
// (submitted as a task graph with a bounded look-ahead window), validation against the analytic
// solution, HDF5 output and summary.json.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "advection_config.hpp"
#include "../../graph/runtime/runtime.hpp"

namespace tdc {

struct RunOptions {
  std::string out_dir;  // empty: write nothing (tests)
  bool progress = true;
  std::string restart;  // checkpoint to resume from (empty: start from the analytic state)
};

// Returns the summary (on rank 0; other ranks get what they know). Check the configuration first
// (load_config, check_courant, check_restart): this runs what it is given.
nlohmann::json run_advection(const AdvectionConfig& cfg, Runtime& rt, const RunOptions& o);

// The Courant check, separately, so that the CLI can refuse a run before anything starts.
void check_courant(const AdvectionConfig& cfg);
// Checks that `path` is a checkpoint this configuration can resume (throws ConfigError naming the
// key or --restart), without reading the field.
void check_restart(const AdvectionConfig& cfg, const std::string& path);

}  // namespace tdc
