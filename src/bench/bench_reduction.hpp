// `taskdycore bench reduction`: the latency of one global reduction as the Krylov solvers do it (a
// dot_partial task per tile, then one solver_scalars task combining every tile's partial into the
// state on rank 0, which the next round's dot tasks read), timed over a chain of dependent rounds,
// beside the same chain with the combine left out (the dot tasks alone). The difference is what a
// reduction adds: the wait for every tile, the transfers of partials and state between devices and
// ranks, and the combine task (see docs/performance.md, "Reduction latency").
#pragma once
#include <nlohmann/json.hpp>

#include "../../graph/runtime/runtime.hpp"

namespace tdc {

struct ReductionBenchOptions {
  int nx = 64, ny = 64, nz = 16;  // small: the dot work is tiny and the latency dominates
  int tiles_x = 1, tiles_y = 1;
  int rounds = 200, repeats = 5;
};

nlohmann::json bench_reduction(const ReductionBenchOptions& o, Runtime& rt);

}  // namespace tdc
