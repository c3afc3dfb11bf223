// An elliptic run: the thin-shell problem on tiles, one solve with the configured Krylov solver,
// validation against the manufactured solution, summary.json (with the `solver` object) and, when
// asked, fields.h5 (solution, exact solution, error).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "elliptic_config.hpp"
#include "../../graph/runtime/runtime.hpp"

namespace tdc {

// Returns the summary (complete on rank 0). `out_dir` empty: write nothing.
nlohmann::json run_elliptic(const EllipticConfig& cfg, Runtime& rt, const std::string& out_dir);

}  // namespace tdc
