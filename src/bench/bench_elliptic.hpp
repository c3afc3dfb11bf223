// `taskdycore bench elliptic`: time per iteration of the Krylov solvers on the thin-shell problem
// (random right-hand side, fixed iteration count): fused PCG, unfused PCG and GCR(k) through the task
// graph, beside the matrix-explicit CSR PCG (CPU; cuSPARSE on a GPU) on the same problem in the same
// run, and the iterations needed for 1e-5 and 1e-10 (see docs/performance.md).
#pragma once
#include <nlohmann/json.hpp>

#include "../../graph/runtime/runtime.hpp"

namespace tdc {

struct EllipticBenchOptions {
  int nx = 256, ny = 256, nz = 128;
  int tiles_x = 1, tiles_y = 1;
  int iterations = 50, repeats = 3;
  int restart = 3;         // GCR(k)
  int check_every = 10;    // iterations submitted between host checks of the solver state (KrylovSettings)
  bool csr = true;         // also time the CSR baselines
  bool tolerances = true;  // also count the iterations to 1e-5 and 1e-10 (fused PCG)
};

// Memory references per cell and iteration, paper 002 Table 2 (a', b', c', d cached).
constexpr double kPcgRefsPerCell = 32.0, kFusedPcgRefsPerCell = 25.0;

nlohmann::json bench_elliptic(const EllipticBenchOptions& o, Runtime& rt);

}  // namespace tdc
