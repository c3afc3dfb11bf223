// `taskdycore bench mpdata`: MPDATA (iord 2) through the task graph, timed after a warm-up as the
// median of repeated runs, beside a direct run of the same kernels without StarPU and a device copy
// measured in the same run (see docs/performance.md).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "../../graph/runtime/runtime.hpp"

namespace tdc {

struct BenchOptions {
  int nx = 256, ny = 256, nz = 256;
  int tiles_x = 1, tiles_y = 1;
  int steps = 20, repeats = 5, warmup = 5;
  bool fct = true, overlap = true, direct = true;
  bool iga = false;           // the infinite-gauge form (the dynamical core's, for momentum)
  bool unit_density = false;  // G = 1 kernels (G not read: 40 B/cell); the roofline still counts 48 B/cell
  int diagnostics = 0;        // steps between asynchronous diagnostics (0: none)
  bool cpu_steps = false;     // (reported) CPU workers allowed to take GPU-capable tasks beside GPUs
};

// Minimal traffic of one step in bytes per cell: read psi, c1, c2, c3, G and write psi (FP64).
constexpr double kBytesPerCell = 48.0;

nlohmann::json bench_mpdata(const BenchOptions& o, Runtime& rt);

}  // namespace tdc
