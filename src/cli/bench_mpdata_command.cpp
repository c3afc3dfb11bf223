// `taskdycore bench mpdata`: MPDATA steps, task graph against direct kernels and the device copy.
#include "commands.hpp"

#include <cstdio>

#include "../bench/bench_mpdata.hpp"
#include "common.hpp"

namespace tdc::cli {

int bench_command(int argc, char** argv, const BenchText& b) {
  tdc::BenchOptions o;
  try {
    parse_grid_and_tiles(b.grid, b.tiles, o);
    o.fct = on_off(b.fct, "--fct");
    o.iga = on_off(b.iga, "--iga");
    if (b.density != "array" && b.density != "unit") throw tdc::ConfigError("--density", "must be array or unit");
    o.unit_density = b.density == "unit";
    o.overlap = on_off(b.overlap, "--overlap");
    o.direct = on_off(b.direct, "--direct");
    o.steps = b.steps;
    o.repeats = b.repeats;
    o.warmup = b.warmup;
    o.diagnostics = b.diagnostics;
    if (o.diagnostics < 0) throw tdc::ConfigError("--diagnostics", "must be zero (none) or positive");
    if (o.nx % o.tiles_x || o.ny % o.tiles_y) throw tdc::ConfigError("--tiles", "tiles must divide the grid");
    if (o.nx / o.tiles_x < 3 || o.ny / o.tiles_y < 3)
      throw tdc::ConfigError("--tiles", "tiles narrower than the halo (3)");
    if (o.steps < 1) throw tdc::ConfigError("--steps", "must be positive");
    if (o.repeats < 1) throw tdc::ConfigError("--repeat", "must be positive");
    if (o.warmup < 0) throw tdc::ConfigError("--warmup", "must be zero or positive");
    check_new_file(b.json, "--json");
  } catch (const tdc::ConfigError& e) {
    if (tdc::launcher_rank() == 0) std::fprintf(stderr, "taskdycore: error: %s\n", e.what());
    return 2;
  }
  bool cpu_steps = false;
  try {
    cpu_steps = on_off(b.cpu_steps, "--cpu-steps");
  } catch (const tdc::ConfigError& e) {
    if (tdc::launcher_rank() == 0) std::fprintf(stderr, "taskdycore: error: %s\n", e.what());
    return 2;
  }
  tdc::RuntimeOptions ro;
  ro.cpu_tasks_with_gpu = cpu_steps;
  o.cpu_steps = cpu_steps;
  tdc::Runtime rt(&argc, &argv, ro);
  const nlohmann::json j = tdc::bench_mpdata(o, rt);
  if (rt.rank() != 0) return 0;
  std::printf(
      "bench mpdata: grid %dx%dx%d, tiles %dx%d, iord 2, FCT %s, iga %s, G %s, overlap %s, diagnostics every %d; %d "
      "CPU "
      "+ %d CUDA workers, %s\n",
      o.nx, o.ny, o.nz, o.tiles_x, o.tiles_y, b.fct.c_str(), b.iga.c_str(), b.density.c_str(), b.overlap.c_str(),
      o.diagnostics, rt.cpu_workers(), rt.cuda_workers(), rt.scheduler().c_str());
  std::printf("  graph : %9.3f ms/step  %10.1f Mcell/s  %7.1f GB/s effective (48 B/cell)\n",
              j["ms_per_step"].get<double>(), j["mcells_per_s"].get<double>(), j["effective_gbs"].get<double>());
  if (j.contains("copy_gbs"))
    std::printf("  device copy %.0f GB/s -> roofline %.1f Gcell/s; graph reaches %.1f %% of it\n",
                j["copy_gbs"].get<double>(), j["roofline_gcells_per_s"].get<double>(),
                100 * j["bandwidth_fraction"].get<double>());
  if (j.contains("direct_ms_per_step"))
    std::printf("  direct: %9.3f ms/step  %10.1f Mcell/s;  graph/direct = %.3f;  same field: %s\n",
                j["direct_ms_per_step"].get<double>(), 1e3 * j["direct_gcells_per_s"].get<double>(),
                j["graph_over_direct"].get<double>(), j["direct_matches_graph"].get<bool>() ? "yes" : "NO");
  if (!b.json.empty()) run_or_abort(rt, [&] { write_atomically(b.json, j.dump(2) + "\n"); });
  return 0;
}

}  // namespace tdc::cli
