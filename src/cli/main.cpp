// taskdycore command line: run a case, describe the runtime, or benchmark. The options are declared
// here; each command is in its own file (commands.hpp).
// Exit status: 0 success, 2 bad input (nothing written), 1 failure during the run (a failed write
// names the file and the OS error; with several ranks the whole job ends), 3 a run stopped by
// time.max_courant, 128 + N after signal N.
#include <CLI/CLI.hpp>

#include <chrono>
#include <csignal>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>

#include "../../graph/runtime/runtime.hpp"
#include "../../graph/spectral_precon.hpp"
#include "commands.hpp"
#include "common.hpp"

int main(int argc, char** argv) {
  using namespace tdc::cli;
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

  auto* calibrate = app.add_subcommand("calibrate", "calibrate the performance models on a short run of a case");
  std::string calibrate_case = "cases/taylor_green.toml";
  std::vector<std::string> calibrate_sets;
  int calibrate_steps = 12;
  calibrate->add_option("case", calibrate_case, "case file (TOML; default cases/taylor_green.toml)");
  calibrate->add_option("--set", calibrate_sets, "override a key, as for run (the grid and tiles to calibrate for)");
  calibrate->add_option("--steps", calibrate_steps, "steps to run (default 12; at least 10)");

  auto* bench = app.add_subcommand("bench", "benchmarks");
  bench->require_subcommand(1);
  auto* bench_mpdata =
      bench->add_subcommand("mpdata", "MPDATA (iord 2) steps: task graph vs direct kernels vs device copy");
  BenchText bt;
  bench_mpdata->add_option("--grid", bt.grid, "NXxNYxNZ (default 256x256x256)");
  bench_mpdata->add_option("--tiles", bt.tiles, "TXxTY (default 1x1)");
  bench_mpdata->add_option("--fct", bt.fct, "on|off (default on)");
  bench_mpdata->add_option("--iga", bt.iga,
                           "infinite-gauge form, as the dynamical core advects momentum: on|off (default off)");
  bench_mpdata->add_option("--density", bt.density,
                           "G as an array, or unit: G = 1 kernels that do not read it (default array)");
  bench_mpdata->add_option("--overlap", bt.overlap, "border/body split: on|off (default on)");
  bench_mpdata->add_option("--direct", bt.direct, "also time the kernels without StarPU (GPU): on|off");
  bench_mpdata->add_option("--steps", bt.steps, "steps per timed run (default 20)");
  bench_mpdata->add_option("--repeat", bt.repeats, "timed runs; the median is reported (default 5)");
  bench_mpdata->add_option("--warmup", bt.warmup, "untimed steps first (default 5)");
  bench_mpdata->add_option("--json", bt.json, "write the figures to this (new) file");
  bench_mpdata->add_option("--cpu-steps", bt.cpu_steps,
                           "let CPU workers take GPU-capable tasks beside GPUs: on|off (default off)");
  bench_mpdata->add_option("--diagnostics", bt.diagnostics, "asynchronous diagnostics every N steps (default 0: none)");
  for (CLI::Option* opt : bench_mpdata->get_options())  // a repeated option: the last value counts
    opt->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  auto* bench_ell =
      bench->add_subcommand("elliptic", "Krylov solvers on the thin-shell problem: fused/unfused PCG, GCR, CSR");
  EllipticBenchText ebt;
  bench_ell->add_option("--grid", ebt.grid, "NXxNYxNZ (default 256x256x128, paper 002's reference size)");
  bench_ell->add_option("--tiles", ebt.tiles, "TXxTY (default 1x1)");
  bench_ell->add_option("--iterations", ebt.iterations, "iterations per timed solve (default 50)");
  bench_ell->add_option("--repeat", ebt.repeats, "timed repeats; the median is reported (default 3)");
  bench_ell->add_option("--restart", ebt.restart, "GCR(k) restart length (default 3)");
  bench_ell->add_option("--check-every", ebt.check_every,
                        "iterations submitted between host checks of the solver state (default 10)");
  bench_ell->add_option("--csr", ebt.csr, "also time the matrix-explicit CSR PCG (CPU; cuSPARSE on a GPU): on|off");
  bench_ell->add_option("--tolerances", ebt.tolerances, "also count iterations to 1e-5 and 1e-10: on|off");
  bench_ell->add_option("--json", ebt.json, "write the figures to this (new) file");
  for (CLI::Option* opt : bench_ell->get_options()) opt->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  auto* bench_red = bench->add_subcommand(
      "reduction", "latency of one global reduction (dot tasks per tile, then the combine on rank 0), chained");
  ReductionBenchText rbt;
  bench_red->add_option("--grid", rbt.grid,
                        "NXxNYxNZ (default 64x64x16: on a GPU the dot kernels take microseconds; CPUs: try 16x16x4)");
  bench_red->add_option("--tiles", rbt.tiles, "TXxTY, spread over the ranks (default 1x1)");
  bench_red->add_option("--rounds", rbt.rounds, "dependent reductions per timed chain (default 200)");
  bench_red->add_option("--repeat", rbt.repeats, "timed chains; the median is reported (default 5)");
  bench_red->add_option("--json", rbt.json, "write the figures to this (new) file");
  for (CLI::Option* opt : bench_red->get_options()) opt->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  bool verbose = false;
  for (CLI::App* command : {run, bench_mpdata, bench_ell, bench_red, info, calibrate})
    command->add_flag("--verbose", verbose, "also show StarPU's own messages (as STARPU_SILENT=0 does)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  if (verbose) setenv("STARPU_SILENT", "0", 1);
  try {  // a bad run-time switch is bad input: refused before an output directory is made
    tdc::Runtime::check_environment();
    tdc::SpectralPreconditioner::spectral_chunks();  // TASKDYCORE_SPECTRAL_CHUNKS
    tdc::SpectralPreconditioner::split_chains_allowed();  // TASKDYCORE_SPECTRAL_SPLIT_CHAINS
  } catch (const std::invalid_argument& e) {
    if (tdc::launcher_rank() == 0) {
      std::fprintf(stderr, "taskdycore: error: %s\n", e.what());
    } else {
      std::this_thread::sleep_for(std::chrono::seconds(10));  // rank 0's message first (as below)
    }
    return 2;
  }
  // A file grown past RLIMIT_FSIZE: the write fails with EFBIG and the run says which file, rather
  // than the process being killed by SIGXFSZ.
  std::signal(SIGXFSZ, SIG_IGN);
  // A path option given as '' is a mistake (it would silently mean the default), not a request.
  for (auto [command, option] : {std::pair<CLI::App*, const char*>{run, "--out"},
                                 {run, "--trace"},
                                 {run, "--restart"},
                                 {bench_mpdata, "--json"},
                                 {bench_ell, "--json"},
                                 {bench_red, "--json"}}) {
    CLI::Option* o = command->get_option(option);
    if (*command && o->count() > 0 && o->as<std::string>().empty()) {
      if (tdc::launcher_rank() == 0) std::fprintf(stderr, "taskdycore: error: option '%s': is empty\n", option);
      return 2;
    }
  }
  try {
    int status = 0;
    if (*run) status = run_command(argc, argv, case_file, sets, out_dir, trace_dir, force, restart);
    if (*bench_mpdata) status = bench_command(argc, argv, bt);
    if (*bench_ell) status = bench_elliptic_command(argc, argv, ebt);
    if (*bench_red) status = bench_reduction_command(argc, argv, rbt);
    if (*info) status = info_command(argc, argv);
    if (*calibrate) status = calibrate_command(argc, argv, calibrate_case, calibrate_sets, calibrate_steps);
    // Bad input is reported by the launcher's rank 0 alone; the other ranks give it time to say so
    // before the launcher ends the job (their exit would cut rank 0 short).
    if (status == 2 && tdc::launcher_rank() != 0) std::this_thread::sleep_for(std::chrono::seconds(10));
    return status;
  } catch (const std::exception& e) {
    if (!failure_reported) std::fprintf(stderr, "taskdycore: error: failed: %s\n", e.what());
    return 1;
  }
  return 0;
}
