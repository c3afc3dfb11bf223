// What the commands share: output directories, reading a case before StarPU starts, failing the
// whole job, and parsing benchmark options. Every command lives in its own file (commands.hpp).
#pragma once
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../graph/runtime/runtime.hpp"
#include "../run/config_error.hpp"

namespace tdc::cli {

namespace fs = std::filesystem;

std::string timestamp();
// A directory with anything in it but the lock file of an earlier run.
bool is_nonempty_dir(const fs::path& p);
// Set once a failure was reported (main need not report it again).
extern bool failure_reported;

// Writes `text` to `path` through a temporary file and a rename, so a reader never sees half a file.
void write_atomically(const fs::path& path, const std::string& text);

// Checks --out: a non-empty directory is refused unless --force. On the launcher's rank 0 the
// directory is then created and locked (flock on DIR/.taskdycore.lock, held until the process ends):
// a second run into it, or one that cannot write there, is refused (ConfigError, status 2).
void check_out_dir(const std::string& out_dir, bool force);
// --trace: created and probed for writing on rank 0 (ConfigError naming --trace).
void check_trace_dir(const std::string& trace_dir);
// A directory a file can be created in (a probe file is created and removed), else ConfigError(option).
void check_writable_dir(const fs::path& dir, const char* option);
// A new file (--json): must not exist, and its directory must be writable.
void check_new_file(const std::string& path, const char* option);

// Reads a case with `load` and checks --restart (refused with `no_restart`) and --out, all before
// StarPU starts; false: a ConfigError was reported, exit with status 2.
template <class Config, class Load>
bool load_case(Load load, const std::string& case_file, const std::vector<std::string>& sets, const char* no_restart,
               const std::string& restart, std::string& out_dir, const std::string& trace_dir, bool force,
               Config& cfg) {
  try {
    cfg = load(case_file, sets);
    if (!restart.empty() && no_restart) throw tdc::ConfigError("--restart", no_restart);
    if (out_dir.empty()) out_dir = "runs/" + cfg.name + "-" + timestamp();
    check_trace_dir(trace_dir);
    check_out_dir(out_dir, force);
    return true;
  } catch (const tdc::ConfigError& e) {
    if (tdc::launcher_rank() == 0) std::fprintf(stderr, "taskdycore: error: %s\n", e.what());
    return false;
  }
}

// On rank 0: creates the output directory; with --force, removes the files a run writes there.
void prepare_out_dir(const tdc::Runtime& rt, const std::string& out_dir, bool force,
                     std::initializer_list<const char*> files);

// Ends the whole job after a rank failed (the other ranks would wait in collectives forever).
void abort_job(const tdc::Runtime& rt, const std::exception& e);
// Makes tdc::fail_run (src/run/run_failure.hpp) end every rank: MPI_Abort where there are several.
void install_failure_handler(const tdc::Runtime& rt);

// Runs a case, or anything else once StarPU has started; a failure on any rank ends the whole job
// (MPI_Abort where there are several ranks: the others would wait in collectives forever).
template <class Body>
auto run_or_abort(tdc::Runtime& rt, Body body) -> decltype(body()) {
  install_failure_handler(rt);
  try {
    return body();
  } catch (const std::exception& e) {
    abort_job(rt, e);
    throw;
  }
}

// "256x128x64" -> {256, 128, 64}; exit-2 errors name the option.
std::vector<int> parse_dims(const std::string& text, std::size_t count, const char* option);

// A benchmark grid that fits the machine's memory (ConfigError naming --grid).
void check_bench_grid(int nx, int ny, int nz);

// --grid NXxNYxNZ and --tiles TXxTY into a benchmark's options.
template <class Options>
void parse_grid_and_tiles(const std::string& grid, const std::string& tiles, Options& o) {
  const auto g = parse_dims(grid, 3, "--grid");
  const auto t = parse_dims(tiles, 2, "--tiles");
  check_bench_grid(g[0], g[1], g[2]);
  o.nx = g[0];
  o.ny = g[1];
  o.nz = g[2];
  o.tiles_x = t[0];
  o.tiles_y = t[1];
}

bool on_off(const std::string& v, const char* option);

}  // namespace tdc::cli
