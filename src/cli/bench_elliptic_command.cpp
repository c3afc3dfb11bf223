// `taskdycore bench elliptic`: the Krylov solvers on the thin-shell problem.
#include "commands.hpp"

#include <algorithm>
#include <cstdio>

#include "../bench/bench_elliptic.hpp"
#include "common.hpp"

namespace tdc::cli {

int bench_elliptic_command(int argc, char** argv, const EllipticBenchText& b) {
  tdc::EllipticBenchOptions o;
  try {
    parse_grid_and_tiles(b.grid, b.tiles, o);
    o.iterations = b.iterations;
    o.repeats = b.repeats;
    o.restart = b.restart;
    o.check_every = b.check_every;
    o.csr = on_off(b.csr, "--csr");
    o.tolerances = on_off(b.tolerances, "--tolerances");
    if (o.nz < 2) throw tdc::ConfigError("--grid", "needs at least 2 levels");
    if (o.nx % o.tiles_x || o.ny % o.tiles_y) throw tdc::ConfigError("--tiles", "tiles must divide the grid");
    if (o.iterations < 1) throw tdc::ConfigError("--iterations", "must be positive");
    if (o.repeats < 1) throw tdc::ConfigError("--repeat", "must be positive");
    if (o.restart < 1 || o.restart > tdc::kMaxGcrDirections)
      throw tdc::ConfigError("--restart", "must be between 1 and " + std::to_string(tdc::kMaxGcrDirections));
    if (o.check_every < 1) throw tdc::ConfigError("--check-every", "must be positive");
    check_new_file(b.json, "--json");
  } catch (const tdc::ConfigError& e) {
    if (tdc::launcher_rank() == 0) std::fprintf(stderr, "taskdycore: error: %s\n", e.what());
    return 2;
  }
  tdc::Runtime rt(&argc, &argv, tdc::RuntimeOptions{});
  const nlohmann::json j = tdc::bench_elliptic(o, rt);
  if (rt.rank() != 0) return 0;
  std::printf(
      "bench elliptic: grid %dx%dx%d, tiles %dx%d, %d iterations x %d repeats; %d CPU + %d CUDA workers, %s; "
      "copy %.0f GB/s (%s)\n",
      o.nx, o.ny, o.nz, o.tiles_x, o.tiles_y, o.iterations, o.repeats, rt.cpu_workers(), rt.cuda_workers(),
      rt.scheduler().c_str(), j["copy_gbs"].get<double>(), j["copy_kind"].get<std::string>().c_str());
  for (const auto& [name, v] : j["variants"].items()) {
    std::printf("  %-13s %9.3f ms/iteration", name.c_str(), v["ms_per_iteration"].get<double>());
    if (v.contains("ms_per_iteration_all")) {
      const auto all = v["ms_per_iteration_all"].get<std::vector<double>>();
      std::printf(" (%.3f..%.3f)", *std::min_element(all.begin(), all.end()),
                  *std::max_element(all.begin(), all.end()));
    }
    if (v.contains("effective_gbs"))
      std::printf("  %7.1f GB/s at %2.0f refs/cell = %5.1f %% of copy", v["effective_gbs"].get<double>(),
                  v["refs_per_cell"].get<double>(), 100 * v["bandwidth_fraction"].get<double>());
    std::printf("\n");
  }
  for (const char* k : {"fused_over_unfused_speedup", "fused_speedup_over_cusparse", "fused_speedup_over_csr_cpu"})
    if (j.contains(k)) std::printf("  %s = %.2f\n", k, j[k].get<double>());
  for (const char* k : {"iterations_to_1e-05", "iterations_to_1e-10"})
    if (j.contains(k)) std::printf("  %s = %d\n", k, j[k].get<int>());
  if (!b.json.empty()) run_or_abort(rt, [&] { write_atomically(b.json, j.dump(2) + "\n"); });
  return 0;
}

}  // namespace tdc::cli
