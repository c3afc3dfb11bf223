// The commands of taskdycore, one file each; main.cpp parses the command line and calls them. Each
// returns the exit status: 0 success, 2 bad input (nothing written), 1 failure during the run, 3 an
// unstable dycore run, 128 + signal when a run was interrupted.
#pragma once
#include <string>
#include <vector>

#include "../../graph/elliptic_solver.hpp"

namespace tdc::cli {

// taskdycore run CASE: reads case.kind and runs the advection, elliptic or dycore command.
int run_command(int argc, char** argv, const std::string& case_file, const std::vector<std::string>& sets,
                std::string out_dir, const std::string& trace_dir, bool force, const std::string& restart);
int advection_command(int argc, char** argv, const std::string& case_file, const std::vector<std::string>& sets,
                      std::string out_dir, const std::string& trace_dir, bool force, const std::string& restart);
int elliptic_command(int argc, char** argv, const std::string& case_file, const std::vector<std::string>& sets,
                     std::string out_dir, const std::string& trace_dir, bool force, const std::string& restart);
int dycore_command(int argc, char** argv, const std::string& case_file, const std::vector<std::string>& sets,
                   std::string out_dir, const std::string& trace_dir, bool force, const std::string& restart);

// taskdycore calibrate CASE: a short run of the case that calibrates StarPU's perf models.
int calibrate_command(int argc, char** argv, const std::string& case_file, std::vector<std::string> sets, int steps);

// taskdycore bench mpdata: the options as typed.
struct BenchText {
  std::string grid = "256x256x256", tiles = "1x1", fct = "on", iga = "off", density = "array", overlap = "on",
              direct = "on", cpu_steps = "off", json;
  int steps = 20, repeats = 5, warmup = 5, diagnostics = 0;
};
int bench_command(int argc, char** argv, const BenchText& b);

// taskdycore bench elliptic: the options as typed.
struct EllipticBenchText {
  std::string grid = "256x256x128", tiles = "1x1", csr = "on", tolerances = "on", json;
  int iterations = 50, repeats = 3, restart = 3, check_every = tdc::KrylovSettings{}.check_every;
};
int bench_elliptic_command(int argc, char** argv, const EllipticBenchText& b);

// taskdycore bench reduction: the options as typed.
struct ReductionBenchText {
  std::string grid = "64x64x16", tiles = "1x1", json;
  int rounds = 200, repeats = 5;
};
int bench_reduction_command(int argc, char** argv, const ReductionBenchText& b);

// taskdycore info: StarPU's build, workers and devices.
int info_command(int argc, char** argv);

}  // namespace tdc::cli
