// taskdycore command line: run a case, describe the runtime, or benchmark.
// Exit status: 0 success, 2 bad input (nothing written), 1 failure during the run.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "advection_run.hpp"
#include "config.hpp"
#include "runtime.hpp"

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

int run_command(int argc, char** argv, const std::string& case_file, const std::vector<std::string>& sets,
                std::string out_dir, const std::string& trace_dir, bool force) {
  const bool root = tdc::launcher_rank() == 0;
  tdc::AdvectionConfig cfg;
  try {
    cfg = tdc::load_config(case_file, sets);
    tdc::check_courant(cfg);
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

  tdc::Runtime rt(&argc, &argv, tdc::RuntimeOptions{cfg.scheduler, trace_dir});
  if (rt.rank() == 0) {
    fs::create_directories(out_dir);
    if (force) {
      for (const char* f : {"fields.h5", "fields.xmf", "summary.json"}) fs::remove(fs::path(out_dir) / f);
    }
    std::printf("taskdycore: case '%s' (%s), grid %dx%dx%d, tiles %dx%d, %d rank(s), %d CPU + %d CUDA workers, "
                "scheduler %s\n",
                cfg.name.c_str(), tdc::to_string(cfg.flow), cfg.grid.nx, cfg.grid.ny, cfg.grid.nz, cfg.tiles_x,
                cfg.tiles_y, rt.size(), rt.cpu_workers(), rt.cuda_workers(), rt.scheduler().c_str());
    std::fflush(stdout);
  }
  rt.wait_all();
  const nlohmann::json summary = tdc::run_advection(cfg, rt, tdc::RunOptions{out_dir, true});
  if (rt.rank() == 0) {
    write_atomically(fs::path(out_dir) / "summary.json", summary.dump(2) + "\n");
    const auto& v = summary["validation"];
    std::printf("taskdycore: %.3f ms/step, %.2f Mcell/s; mass change %.3g, min %.6g, max %.6g", 
                summary["ms_per_step"].get<double>(), summary["mcells_per_s"].get<double>(),
                v["mass_rel_change"].get<double>(), v["min"].get<double>(), v["max"].get<double>());
    if (v.contains("l2_error")) std::printf(", l2 error %.4g", v["l2_error"].get<double>());
    std::printf("\ntaskdycore: output in %s (summary.json, fields.h5, fields.xmf)\n", out_dir.c_str());
    if (!trace_dir.empty()) std::printf("taskdycore: FxT trace in %s (analyse with tools/trace %s)\n", trace_dir.c_str(), trace_dir.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"taskdycore: an EULAG-style dynamical core whose time steps are StarPU task graphs"};
  app.require_subcommand(1);

  auto* run = app.add_subcommand("run", "run a case described by a TOML file");
  std::string case_file, out_dir, trace_dir;
  std::vector<std::string> sets;
  bool force = false;
  run->add_option("case", case_file, "case file (TOML), e.g. cases/solid_body_rotation.toml")->required();
  run->add_option("--set", sets, "override a key: --set grid.nx=128 (repeatable)");
  run->add_option("--out", out_dir, "output directory (default runs/<case>-<time>); must be new or empty");
  run->add_option("--trace", trace_dir, "record an FxT trace into this directory (analyse with tools/trace)");
  run->add_flag("--force", force, "write into a non-empty output directory, replacing its files");

  auto* info = app.add_subcommand("info", "StarPU build, workers, devices and MPI ranks");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  try {
    if (*run) return run_command(argc, argv, case_file, sets, out_dir, trace_dir, force);
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
