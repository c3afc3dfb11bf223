// `taskdycore bench reduction`: the latency of one global reduction (dot tasks, then the combine).
#include "commands.hpp"

#include <cstdio>

#include "../bench/bench_reduction.hpp"
#include "common.hpp"

namespace tdc::cli {

int bench_reduction_command(int argc, char** argv, const ReductionBenchText& b) {
  tdc::ReductionBenchOptions o;
  try {
    parse_grid_and_tiles(b.grid, b.tiles, o);
    o.rounds = b.rounds;
    o.repeats = b.repeats;
    if (o.nx % o.tiles_x || o.ny % o.tiles_y) throw tdc::ConfigError("--tiles", "tiles must divide the grid");
    if (o.tiles_x * o.tiles_y > tdc::kMaxCombineTiles)
      throw tdc::ConfigError("--tiles", "at most " + std::to_string(tdc::kMaxCombineTiles) + " tiles");
    if (o.rounds < 1) throw tdc::ConfigError("--rounds", "must be positive");
    if (o.repeats < 1) throw tdc::ConfigError("--repeat", "must be positive");
    check_new_file(b.json, "--json");
  } catch (const tdc::ConfigError& e) {
    if (tdc::launcher_rank() == 0) std::fprintf(stderr, "taskdycore: error: %s\n", e.what());
    return 2;
  }
  tdc::Runtime rt(&argc, &argv, tdc::RuntimeOptions{});
  const nlohmann::json j = tdc::bench_reduction(o, rt);
  if (rt.rank() != 0) return 0;
  std::printf(
      "bench reduction: grid %dx%dx%d, tiles %dx%d, %d rounds x %d repeats; %d rank(s) of %d CPU + %d CUDA workers "
      "(%d GPUs), %s\n",
      o.nx, o.ny, o.nz, o.tiles_x, o.tiles_y, o.rounds, o.repeats, rt.size(), rt.cpu_workers(), rt.cuda_workers(),
      j["gpus"].get<int>(), rt.scheduler().c_str());
  for (const char* name : {"reduction", "dots_only"}) {
    const auto& v = j["variants"][name];
    std::printf("  %-10s %9.1f us/round (%.1f..%.1f)\n", name, v["us_per_round"].get<double>(),
                v["us_per_round_min"].get<double>(), v["us_per_round_max"].get<double>());
  }
  std::printf("  reduction latency (the difference) = %.1f us\n", j["reduction_latency_us"].get<double>());
  if (!b.json.empty()) run_or_abort(rt, [&] { write_atomically(b.json, j.dump(2) + "\n"); });
  return 0;
}

}  // namespace tdc::cli
