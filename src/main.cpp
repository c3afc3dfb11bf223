// taskdycore command line: run a case, describe the runtime, or benchmark.
// Exit status: 0 success, 2 bad input (nothing written), 1 failure during the run.
#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "advection_run.hpp"
#include "../codelets/solver_scalars/solver_state.hpp"
#include "bench_elliptic.hpp"
#include "../graph/elliptic_solver.hpp"
#include "bench_mpdata.hpp"
#include "config.hpp"
#include "dycore_config.hpp"
#include "dycore_run.hpp"
#include "elliptic_config.hpp"
#include "elliptic_run.hpp"
#include "runtime.hpp"
#include "stop_request.hpp"

namespace fs = std::filesystem;

namespace {

std::string timestamp() {
  const std::time_t now = std::time(nullptr);
  char s[32];
  std::strftime(s, sizeof s, "%Y%m%d-%H%M%S", std::localtime(&now));
  return s;
}

bool is_nonempty_dir(const fs::path& p) { return fs::is_directory(p) && !fs::is_empty(p); }

// Writes `text` to `path` through a temporary file and a rename, so a reader never sees half a file.
void write_atomically(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, path);
}

// Checks --out: a non-empty directory is refused unless --force.
void check_out_dir(const std::string& out_dir, bool force) {
  if (is_nonempty_dir(out_dir) && !force)
    throw tdc::ConfigError("--out", "'" + out_dir + "' exists and is not empty; refusing to overwrite it (choose "
                                    "another directory or pass --force)");
  if (fs::exists(out_dir) && !fs::is_directory(out_dir))
    throw tdc::ConfigError("--out", "'" + out_dir + "' exists and is not a directory");
}

// Reads a case with `load` and checks --restart (refused with `no_restart`) and --out, all before
// StarPU starts; false: a ConfigError was reported, exit with status 2.
template <class Config, class Load>
bool load_case(Load load, const std::string& case_file, const std::vector<std::string>& sets, const char* no_restart,
               const std::string& restart, std::string& out_dir, bool force, Config& cfg) {
  try {
    cfg = load(case_file, sets);
    if (!restart.empty() && no_restart) throw tdc::ConfigError("--restart", no_restart);
    if (out_dir.empty()) out_dir = "runs/" + cfg.name + "-" + timestamp();
    check_out_dir(out_dir, force);
    return true;
  } catch (const tdc::ConfigError& e) {
    if (tdc::launcher_rank() == 0) std::fprintf(stderr, "taskdycore: error: %s\n", e.what());
    return false;
  }
}

// On rank 0: creates the output directory; with --force, removes the files a run writes there.
void prepare_out_dir(const tdc::Runtime& rt, const std::string& out_dir, bool force,
                     std::initializer_list<const char*> files) {
  if (rt.rank() != 0) return;
  fs::create_directories(out_dir);
  if (force)
    for (const char* f : files) fs::remove(fs::path(out_dir) / f);
}

// Runs a case; a failure ends the whole job (the other ranks would wait in collectives forever).
template <class Body>
nlohmann::json run_or_abort(tdc::Runtime& rt, Body body) {
  try {
    return body();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "taskdycore: rank %d failed: %s\n", rt.rank(), e.what());
    if (rt.size() > 1) MPI_Abort(MPI_COMM_WORLD, 1);
    throw;
  }
}

int elliptic_command(int argc, char** argv, const std::string& case_file, const std::vector<std::string>& sets,
                     std::string out_dir, const std::string& trace_dir, bool force, const std::string& restart) {
  tdc::EllipticConfig cfg;
  if (!load_case(tdc::load_elliptic_config, case_file, sets, "an elliptic case has no time steps to resume", restart,
                 out_dir, force, cfg))
    return 2;
  tdc::Runtime rt(&argc, &argv, tdc::RuntimeOptions{cfg.scheduler, trace_dir, cfg.cpu_tasks_with_gpu});
  prepare_out_dir(rt, out_dir, force, {"fields.h5", "fields.xmf", "summary.json"});
  const auto& p = cfg.shell;
  if (rt.rank() == 0) {
    std::printf("taskdycore: case '%s' (elliptic, %s%s), grid %dx%dx%d, tiles %dx%d, %d rank(s), %d CPU + %d CUDA "
                "workers, scheduler %s\n",
                cfg.name.c_str(), tdc::to_string(cfg.solver.method),
                cfg.solver.method == tdc::KrylovMethod::Pcg ? (cfg.solver.fused ? " fused" : " unfused") : "",
                p.nx, p.ny, p.nz, cfg.tiles_x, cfg.tiles_y, rt.size(), rt.cpu_workers(), rt.cuda_workers(),
                rt.scheduler().c_str());
    std::fflush(stdout);
  }
  const nlohmann::json summary = run_or_abort(rt, [&] { return tdc::run_elliptic(cfg, rt, out_dir); });
  if (rt.rank() == 0) {
    write_atomically(fs::path(out_dir) / "summary.json", summary.dump(2) + "\n");
    const auto& s = summary["solver"];
    const auto& v = summary["validation"];
    std::printf("taskdycore: %s after %d iterations (%.3f ms/iteration), residual %.3g of the initial",
                s["converged"].get<bool>() ? "converged" : "NOT converged", s["iterations"].get<int>(),
                s["ms_per_iteration"].get<double>(), v["true_residual_rel"].get<double>());
    if (v.contains("error_l2"))
      std::printf("; error l2 %.4g, max %.4g", v["error_l2"].get<double>(), v["error_max"].get<double>());
    std::printf("\ntaskdycore: output in %s (summary.json%s)\n", out_dir.c_str(),
                cfg.write_fields && v.contains("error_l2") ? ", fields.h5, fields.xmf" : "");
  }
  return summary.empty() || summary["solver"]["converged"].get<bool>() ? 0 : 1;
}

int dycore_command(int argc, char** argv, const std::string& case_file, const std::vector<std::string>& sets,
                   std::string out_dir, const std::string& trace_dir, bool force, const std::string& restart) {
  tdc::DycoreConfig cfg;
  if (!load_case(tdc::load_dycore_config, case_file, sets, nullptr, "", out_dir, force, cfg)) return 2;
  try {
    if (!restart.empty()) tdc::check_dycore_restart(cfg, restart);
  } catch (const tdc::ConfigError& e) {
    if (tdc::launcher_rank() == 0) std::fprintf(stderr, "taskdycore: error: %s\n", e.what());
    return 2;
  }
  tdc::Runtime rt(&argc, &argv, tdc::RuntimeOptions{cfg.scheduler, trace_dir, cfg.cpu_tasks_with_gpu});
  // (checkpoint.h5 is not removed: it is replaced atomically, and may be the one we resume from)
  prepare_out_dir(rt, out_dir, force,
                  {"diagnostics.csv", "diagnostics.h5", "summary.json", "fields.h5", "fields.xmf"});
  if (rt.rank() == 0) {
    std::printf("taskdycore: case '%s' (dycore, NFT, %s), grid %dx%dx%d, tiles %dx%d, %d rank(s), %d CPU + %d CUDA "
                "workers, scheduler %s\n",
                cfg.name.c_str(), tdc::to_string(cfg.solver.method), cfg.grid.nx, cfg.grid.ny, cfg.grid.nz, cfg.tiles_x,
                cfg.tiles_y, rt.size(), rt.cpu_workers(), rt.cuda_workers(), rt.scheduler().c_str());
    std::fflush(stdout);
  }
  const nlohmann::json summary =
      run_or_abort(rt, [&] { return tdc::run_dycore(cfg, rt, rt.rank() == 0 ? out_dir : "", true, restart); });
  const int signal = summary.contains("interrupted_by_signal") ? summary["interrupted_by_signal"].get<int>() : 0;
  if (rt.rank() == 0) {
    write_atomically(fs::path(out_dir) / "summary.json", summary.dump(2) + "\n");
    const auto& v = summary["validation"];
    std::printf("taskdycore: %.3f ms/step, %.2f Mcell/s; max |div| %.3g (tolerance %.3g), solves converged: %s",
                summary["ms_per_step"].get<double>(), summary["mcells_per_s"].get<double>(),
                v["max_divergence"].get<double>(), cfg.divergence_tolerance,
                summary["solver"]["converged_every_step"].get<bool>()
                    ? "yes"
                    : ("NO at " + std::to_string(summary["solver"]["unconverged_steps"].size()) +
                       " steps (summary.json solver.unconverged_steps; raise solver.max_iter)")
                          .c_str());
    if (v.contains("rise_height")) {
      const auto& z = v["rise_height"]["centroid_z"];
      std::printf("; bubble centroid %.1f -> %.1f m, theta' conserved to %.1e, energy budget error %.2g\n",
                  z.front().get<double>(), z.back().get<double>(), v["theta_relative_change_max"].get<double>(),
                  v["energy_budget_error"].get<double>());
    } else {
      std::printf(", kinetic energy never grows: %s\n", v["kinetic_energy_never_grows"].get<bool>() ? "yes" : "NO");
    }
    std::printf("taskdycore: output in %s (summary.json, diagnostics.csv, diagnostics.h5%s%s)\n", out_dir.c_str(),
                cfg.write_fields ? ", fields.h5, fields.xmf" : "", summary["output"].contains("checkpoint") ? ", checkpoint.h5" : "");
    if (signal) std::printf("taskdycore: interrupted; resume with --restart %s/checkpoint.h5\n", out_dir.c_str());
    if (summary.contains("aborted"))
      std::fprintf(stderr, "taskdycore: error: %s\n", summary["aborted"].get<std::string>().c_str());
  }
  const int aborted = tdc::first_nonzero_over_ranks(rt.rank() == 0 && summary.contains("aborted"), rt.rank(), rt.size());
  return signal ? 128 + signal : aborted ? 3 : 0;
}

int run_command(int argc, char** argv, const std::string& case_file, const std::vector<std::string>& sets,
                std::string out_dir, const std::string& trace_dir, bool force, const std::string& restart) {
  const bool root = tdc::launcher_rank() == 0;
  try {
    const std::string kind = tdc::case_kind(case_file, sets);
    if (kind == "elliptic") return elliptic_command(argc, argv, case_file, sets, out_dir, trace_dir, force, restart);
    if (kind == "dycore") return dycore_command(argc, argv, case_file, sets, out_dir, trace_dir, force, restart);
  } catch (const tdc::ConfigError& e) {
    if (root) std::fprintf(stderr, "taskdycore: error: %s\n", e.what());
    return 2;
  }
  tdc::AdvectionConfig cfg;
  try {
    cfg = tdc::load_config(case_file, sets);
    tdc::check_courant(cfg);
    if (!restart.empty()) tdc::check_restart(cfg, restart);
    if (out_dir.empty()) out_dir = "runs/" + cfg.name + "-" + timestamp();
    if (is_nonempty_dir(out_dir) && !force)
      throw tdc::ConfigError("--out", "'" + out_dir + "' exists and is not empty; refusing to overwrite it (choose "
                                      "another directory or pass --force)");
    if (fs::exists(out_dir) && !fs::is_directory(out_dir))
      throw tdc::ConfigError("--out", "'" + out_dir + "' exists and is not a directory");
  } catch (const tdc::ConfigError& e) {
    if (root) std::fprintf(stderr, "taskdycore: error: %s\n", e.what());
    return 2;
  }

  tdc::Runtime rt(&argc, &argv, tdc::RuntimeOptions{cfg.scheduler, trace_dir, cfg.cpu_tasks_with_gpu});
  if (rt.rank() == 0) {
    fs::create_directories(out_dir);
    if (force) {
      // (checkpoint.h5 is not removed: it is replaced atomically, and may be the one we resume from)
      for (const char* f : {"fields.h5", "fields.xmf", "summary.json"}) fs::remove(fs::path(out_dir) / f);
    }
    std::printf("taskdycore: case '%s' (%s), grid %dx%dx%d, tiles %dx%d, %d rank(s), %d CPU + %d CUDA workers, "
                "scheduler %s\n",
                cfg.name.c_str(), tdc::to_string(cfg.flow), cfg.grid.nx, cfg.grid.ny, cfg.grid.nz, cfg.tiles_x,
                cfg.tiles_y, rt.size(), rt.cpu_workers(), rt.cuda_workers(), rt.scheduler().c_str());
    std::fflush(stdout);
  }
  rt.wait_all();
  const nlohmann::json summary =
      run_or_abort(rt, [&] { return tdc::run_advection(cfg, rt, tdc::RunOptions{out_dir, true, restart}); });
  const int signal = summary.contains("interrupted_by_signal") ? summary["interrupted_by_signal"].get<int>() : 0;
  if (rt.rank() == 0) {
    write_atomically(fs::path(out_dir) / "summary.json", summary.dump(2) + "\n");
    const auto& v = summary["validation"];
    std::printf("taskdycore: %.3f ms/step, %.2f Mcell/s; mass change %.3g, min %.6g, max %.6g", 
                summary["ms_per_step"].get<double>(), summary["mcells_per_s"].get<double>(),
                v["mass_rel_change"].get<double>(), v["min"].get<double>(), v["max"].get<double>());
    if (v.contains("l2_error")) std::printf(", l2 error %.4g", v["l2_error"].get<double>());
    std::printf("\ntaskdycore: output in %s (summary.json, fields.h5, fields.xmf, checkpoint.h5)\n", out_dir.c_str());
    if (signal)
      std::printf("taskdycore: interrupted; resume with --restart %s/checkpoint.h5\n", out_dir.c_str());
    if (!trace_dir.empty()) std::printf("taskdycore: FxT trace in %s (analyse with tools/trace %s)\n", trace_dir.c_str(), trace_dir.c_str());
  }
  return signal ? 128 + signal : 0;
}

// "256x128x64" -> {256, 128, 64}; exit-2 errors name the option.
std::vector<int> parse_dims(const std::string& text, std::size_t count, const char* option) {
  std::vector<int> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t x = text.find('x', start);
    const std::string part = text.substr(start, x == std::string::npos ? std::string::npos : x - start);
    try {
      std::size_t used = 0;
      const int v = std::stoi(part, &used);
      if (used != part.size() || v <= 0) throw std::invalid_argument(part);
      out.push_back(v);
    } catch (const std::exception&) {
      throw tdc::ConfigError(option, "'" + text + "' is not " + std::to_string(count) + " positive integers joined by 'x'");
    }
    if (x == std::string::npos) break;
    start = x + 1;
  }
  if (out.size() != count)
    throw tdc::ConfigError(option, "'" + text + "' is not " + std::to_string(count) + " positive integers joined by 'x'");
  return out;
}

// --grid NXxNYxNZ and --tiles TXxTY into a benchmark's options.
template <class Options>
void parse_grid_and_tiles(const std::string& grid, const std::string& tiles, Options& o) {
  const auto g = parse_dims(grid, 3, "--grid");
  const auto t = parse_dims(tiles, 2, "--tiles");
  o.nx = g[0];
  o.ny = g[1];
  o.nz = g[2];
  o.tiles_x = t[0];
  o.tiles_y = t[1];
}

bool on_off(const std::string& v, const char* option) {
  if (v == "on") return true;
  if (v == "off") return false;
  throw tdc::ConfigError(option, "expected on or off, got '" + v + "'");
}

struct BenchText {
  std::string grid = "256x256x256", tiles = "1x1", fct = "on", iga = "off", density = "array", overlap = "on", direct = "on",
              cpu_steps = "off", json;
  int steps = 20, repeats = 5, warmup = 5, diagnostics = 0;
};

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
    if (o.nx / o.tiles_x < 3 || o.ny / o.tiles_y < 3) throw tdc::ConfigError("--tiles", "tiles narrower than the halo (3)");
    if (o.steps < 1 || o.repeats < 1 || o.warmup < 0) throw tdc::ConfigError("--steps", "steps and repeats must be positive");
    if (!b.json.empty() && fs::exists(b.json)) throw tdc::ConfigError("--json", "'" + b.json + "' exists; not overwriting it");
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
  std::printf("bench mpdata: grid %dx%dx%d, tiles %dx%d, iord 2, FCT %s, iga %s, G %s, overlap %s, diagnostics every %d; %d CPU "
              "+ %d CUDA workers, %s\n",
              o.nx, o.ny, o.nz, o.tiles_x, o.tiles_y, b.fct.c_str(), b.iga.c_str(), b.density.c_str(), b.overlap.c_str(), o.diagnostics, rt.cpu_workers(),
              rt.cuda_workers(), rt.scheduler().c_str());
  std::printf("  graph : %9.3f ms/step  %10.1f Mcell/s  %7.1f GB/s effective (48 B/cell)\n", j["ms_per_step"].get<double>(),
              j["mcells_per_s"].get<double>(), j["effective_gbs"].get<double>());
  if (j.contains("copy_gbs"))
    std::printf("  device copy %.0f GB/s -> roofline %.1f Gcell/s; graph reaches %.1f %% of it\n", j["copy_gbs"].get<double>(),
                j["roofline_gcells_per_s"].get<double>(), 100 * j["bandwidth_fraction"].get<double>());
  if (j.contains("direct_ms_per_step"))
    std::printf("  direct: %9.3f ms/step  %10.1f Mcell/s;  graph/direct = %.3f;  same field: %s\n",
                j["direct_ms_per_step"].get<double>(), 1e3 * j["direct_gcells_per_s"].get<double>(),
                j["graph_over_direct"].get<double>(), j["direct_matches_graph"].get<bool>() ? "yes" : "NO");
  if (!b.json.empty()) write_atomically(b.json, j.dump(2) + "\n");
  return 0;
}

struct EllipticBenchText {
  std::string grid = "256x256x128", tiles = "1x1", csr = "on", tolerances = "on", json;
  int iterations = 50, repeats = 3, restart = 3, check_every = tdc::KrylovSettings{}.check_every;
};

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
    if (o.iterations < 1 || o.repeats < 1) throw tdc::ConfigError("--iterations", "iterations and repeats must be positive");
    if (o.restart < 1 || o.restart > tdc::kMaxGcrDirections)
      throw tdc::ConfigError("--restart", "must be between 1 and " + std::to_string(tdc::kMaxGcrDirections));
    if (o.check_every < 1) throw tdc::ConfigError("--check-every", "must be positive");
    if (!b.json.empty() && fs::exists(b.json)) throw tdc::ConfigError("--json", "'" + b.json + "' exists; not overwriting it");
  } catch (const tdc::ConfigError& e) {
    if (tdc::launcher_rank() == 0) std::fprintf(stderr, "taskdycore: error: %s\n", e.what());
    return 2;
  }
  tdc::Runtime rt(&argc, &argv, tdc::RuntimeOptions{});
  const nlohmann::json j = tdc::bench_elliptic(o, rt);
  if (rt.rank() != 0) return 0;
  std::printf("bench elliptic: grid %dx%dx%d, tiles %dx%d, %d iterations x %d repeats; %d CPU + %d CUDA workers, %s; "
              "copy %.0f GB/s (%s)\n",
              o.nx, o.ny, o.nz, o.tiles_x, o.tiles_y, o.iterations, o.repeats, rt.cpu_workers(), rt.cuda_workers(),
              rt.scheduler().c_str(), j["copy_gbs"].get<double>(), j["copy_kind"].get<std::string>().c_str());
  for (const auto& [name, v] : j["variants"].items()) {
    std::printf("  %-13s %9.3f ms/iteration", name.c_str(), v["ms_per_iteration"].get<double>());
    if (v.contains("ms_per_iteration_all")) {
      const auto all = v["ms_per_iteration_all"].get<std::vector<double>>();
      std::printf(" (%.3f..%.3f)", *std::min_element(all.begin(), all.end()), *std::max_element(all.begin(), all.end()));
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
  if (!b.json.empty()) write_atomically(b.json, j.dump(2) + "\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"taskdycore: an EULAG-style dynamical core whose time steps are StarPU task graphs"};
  app.require_subcommand(1);

  auto* run = app.add_subcommand("run", "run a case described by a TOML file");
  std::string case_file, out_dir, trace_dir, restart;
  std::vector<std::string> sets;
  bool force = false;
  run->add_option("case", case_file, "case file (TOML), e.g. cases/solid_body_rotation.toml")->required();
  run->add_option("--set", sets, "override a key: --set grid.nx=128 (repeatable)");
  run->add_option("--out", out_dir, "output directory (default runs/<case>-<time>); must be new or empty");
  run->add_option("--trace", trace_dir, "record an FxT trace into this directory (analyse with tools/trace)");
  run->add_flag("--force", force, "write into a non-empty output directory, replacing its files");
  run->add_option("--restart", restart, "resume from a checkpoint (DIR/checkpoint.h5 of an earlier run)");

  auto* info = app.add_subcommand("info", "StarPU build, workers, devices and MPI ranks");

  auto* bench = app.add_subcommand("bench", "benchmarks");
  bench->require_subcommand(1);
  auto* bench_mpdata = bench->add_subcommand("mpdata", "MPDATA (iord 2) steps: task graph vs direct kernels vs device copy");
  BenchText bt;
  bench_mpdata->add_option("--grid", bt.grid, "NXxNYxNZ (default 256x256x256)");
  bench_mpdata->add_option("--tiles", bt.tiles, "TXxTY (default 1x1)");
  bench_mpdata->add_option("--fct", bt.fct, "on|off (default on)");
  bench_mpdata->add_option("--iga", bt.iga, "infinite-gauge form, as the dynamical core advects momentum: on|off (default off)");
  bench_mpdata->add_option("--density", bt.density, "G as an array, or unit: G = 1 kernels that do not read it (default array)");
  bench_mpdata->add_option("--overlap", bt.overlap, "border/body split: on|off (default on)");
  bench_mpdata->add_option("--direct", bt.direct, "also time the kernels without StarPU (GPU): on|off");
  bench_mpdata->add_option("--steps", bt.steps, "steps per timed run (default 20)");
  bench_mpdata->add_option("--repeat", bt.repeats, "timed runs; the median is reported (default 5)");
  bench_mpdata->add_option("--warmup", bt.warmup, "untimed steps first (default 5)");
  bench_mpdata->add_option("--json", bt.json, "write the figures to this (new) file");
  bench_mpdata->add_option("--cpu-steps", bt.cpu_steps, "let CPU workers take GPU-capable tasks beside GPUs: on|off (default off)");
  bench_mpdata->add_option("--diagnostics", bt.diagnostics, "asynchronous diagnostics every N steps (default 0: none)");
  for (CLI::Option* opt : bench_mpdata->get_options())  // a repeated option: the last value counts
    opt->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  auto* bench_ell = bench->add_subcommand("elliptic", "Krylov solvers on the thin-shell problem: fused/unfused PCG, GCR, CSR");
  EllipticBenchText ebt;
  bench_ell->add_option("--grid", ebt.grid, "NXxNYxNZ (default 256x256x128, paper 002's reference size)");
  bench_ell->add_option("--tiles", ebt.tiles, "TXxTY (default 1x1)");
  bench_ell->add_option("--iterations", ebt.iterations, "iterations per timed solve (default 50)");
  bench_ell->add_option("--repeat", ebt.repeats, "timed repeats; the median is reported (default 3)");
  bench_ell->add_option("--restart", ebt.restart, "GCR(k) restart length (default 3)");
  bench_ell->add_option("--check-every", ebt.check_every, "iterations submitted between host checks of the solver state (default 10)");
  bench_ell->add_option("--csr", ebt.csr, "also time the matrix-explicit CSR PCG (CPU; cuSPARSE on a GPU): on|off");
  bench_ell->add_option("--tolerances", ebt.tolerances, "also count iterations to 1e-5 and 1e-10: on|off");
  bench_ell->add_option("--json", ebt.json, "write the figures to this (new) file");
  for (CLI::Option* opt : bench_ell->get_options()) opt->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  bool verbose = false;
  for (CLI::App* command : {run, bench_mpdata, bench_ell, info})
    command->add_flag("--verbose", verbose, "also show StarPU's own messages (as STARPU_SILENT=0 does)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  if (verbose) setenv("STARPU_SILENT", "0", 1);
  try {
    if (*run) return run_command(argc, argv, case_file, sets, out_dir, trace_dir, force, restart);
    if (*bench_mpdata) return bench_command(argc, argv, bt);
    if (*bench_ell) return bench_elliptic_command(argc, argv, ebt);
    if (*info) {
      tdc::Runtime rt(&argc, &argv, tdc::RuntimeOptions{});
      if (rt.rank() == 0) std::cout << tdc::runtime_info(rt);
      return 0;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "taskdycore: failed: %s\n", e.what());
    return 1;
  }
  return 0;
}
