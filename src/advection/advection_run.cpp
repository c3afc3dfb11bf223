#include "advection_run.hpp"

#include <cerrno>
#include <cstring>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>

#include "advection_model.hpp"
#include "../io/checkpoint.hpp"
#include "../io/time_series.hpp"
#include "../run/checkpoints.hpp"
#include "../run/checksum.hpp"
#include "../run/field_records.hpp"
#include "../run/run_failure.hpp"
#include "../run/progress.hpp"
#include "../run/stepping.hpp"
#include "../run/timing.hpp"

namespace tdc {
namespace {

struct ErrorNorms {
  double l2 = 0, linf = 0;
};
ErrorNorms error_norms(const AdvectionConfig& cfg, const AdvectionCase& ac, const std::vector<double>& psi, double t) {
  const Grid& g = cfg.grid;
  DD err2, ref2;
  double linf = 0;
  std::size_t n = 0;
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i, ++n) {
        const double e = ac.exact(i, j, k, t);
        const double d = psi[n] - e;
        err2 = dd_add(err2, d * d);
        ref2 = dd_add(ref2, e * e);
        linf = std::max(linf, std::fabs(d));
      }
  return {std::sqrt(dd_value(err2) / dd_value(ref2)), linf};
}

nlohmann::json grid_json(const AdvectionConfig& c) {
  return {{"nx", c.grid.nx},
          {"ny", c.grid.ny},
          {"nz", c.grid.nz},
          {"lx", c.grid.lx},
          {"ly", c.grid.ly},
          {"lz", c.grid.lz},
          {"z_boundary", c.z_boundary == ZBoundary::Rigid ? "rigid" : "periodic"}};
}

}  // namespace

void check_courant(const AdvectionConfig& cfg) {
  const double c = AdvectionCase(cfg).max_courant();
  if (c > 1.0)
    throw ConfigError("time.dt", "the largest Courant number (sum of a cell's outflow Courant numbers) is " +
                                     std::to_string(c) + " > 1: MPDATA would be unstable; reduce time.dt");
}

void check_restart(const AdvectionConfig& cfg, const std::string& path) {
  check_restart_file(path, trajectory_fingerprint(cfg), {"psi"}, cfg.grid, cfg.steps);
}

nlohmann::json run_advection(const AdvectionConfig& cfg, Runtime& rt, const RunOptions& o) {
  const int rank = rt.rank();
  std::unique_ptr<io::CheckpointState> restart = read_restart(o.restart, trajectory_fingerprint(cfg), {"psi"});
  AdvectionModel model(cfg, rank, rt.size(), restart.get());
  const AdvectionCase& ac = model.analytic();
  const double max_courant = ac.max_courant();
  const long first_step = model.step();
  const Moments m_start = model.moments();
  // Budgets of the run's initial state, carried across restarts so changes are over the whole run.
  double mass0 = dd_value(m_start.mass), min0 = m_start.min, max0 = m_start.max;
  if (restart) {
    for (const auto& [name, v] : restart->budgets) {
      if (name == "mass_initial") mass0 = v;
      if (name == "initial_min") min0 = v;
      if (name == "initial_max") max0 = v;
    }
    restart.reset();  // the field is in the tiles now
  }

  // Field records: written asynchronously (snapshot, transfer to rank 0, writer thread). The serial
  // HDF5 library is not thread-safe: every HDF5 call of the run holds `hdf5`.
  std::mutex hdf5;
  std::vector<double> global;
  double output_s = 0;
  std::unique_ptr<FieldRecords> output;
  if (!o.out_dir.empty())
    output = std::make_unique<FieldRecords>(
        model.decomposition(), rank, o.out_dir + "/fields.h5", cfg.grid, std::vector<std::string>{"psi"},
        FieldRecords::Attributes{
            {"title", "taskdycore MPDATA advection"}, {"case", cfg.name}, {"flow", to_string(cfg.flow)}},
        FieldRecords::Attributes{{"psi", "1"}}, hdf5);
  auto write_record = [&]() {  // collective; returns at once
    if (!output) return;
    const auto t0 = Clock::now();
    output->submit({&model.psi()}, model.time());
    output_s += seconds_since(t0);
  };
  auto write_checkpoint = [&]() {  // collective: gathers psi, rank 0 writes checkpoint.h5 atomically
    if (o.out_dir.empty()) return;
    const auto t0 = Clock::now();
    io::CheckpointState s;
    s.fields.emplace_back("psi", std::vector<double>{});
    model.gather(s.fields[0].second);
    if (rank == 0) {
      s.step = model.step();
      s.time = model.time();
      s.nx = cfg.grid.nx;
      s.ny = cfg.grid.ny;
      s.nz = cfg.grid.nz;
      s.budgets = {{"mass_initial", mass0}, {"initial_min", min0}, {"initial_max", max0}};
      write_checkpoint_file(o.out_dir + "/checkpoint.h5", s, trajectory_fingerprint(cfg), hdf5);
    }
    output_s += seconds_since(t0);
  };
  write_record();

  // Diagnostics: records arrive asynchronously; rank 0 appends them to diagnostics.csv as they come
  // and writes the whole series to diagnostics.h5 at the end.
  const double cell_volume = cfg.grid.dx() * cfg.grid.dy() * cfg.grid.dz();
  std::vector<std::vector<double>> series(7);
  std::FILE* csv = nullptr;
  if (rank == 0 && !o.out_dir.empty() && cfg.diagnostics_interval > 0) {
    csv = std::fopen((o.out_dir + "/diagnostics.csv").c_str(), "w");
    if (!csv) fail_run("cannot write " + o.out_dir + "/diagnostics.csv: " + std::strerror(errno));
    std::fprintf(csv, "step,time,mass,mass_rel_change,variance,min,max\n");
    if (std::fflush(csv) != 0) fail_run("cannot write " + o.out_dir + "/diagnostics.csv: " + std::strerror(errno));
  }
  auto record_diagnostics = [&](bool wait_all) {  // collective
    for (const DiagnosticRecord& r : model.take_diagnostics(wait_all)) {
      if (rank != 0) continue;
      const double mass = dd_value(r.moments.mass) * cell_volume;
      const double row[7] = {double(r.step),
                             r.time,
                             mass,
                             (mass - mass0 * cell_volume) / (mass0 * cell_volume),
                             dd_value(r.moments.mass_sq) * cell_volume,
                             r.moments.min,
                             r.moments.max};
      for (int c = 0; c < 7; ++c) series[c].push_back(row[c]);
      if (csv) {
        std::fprintf(csv, "%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", r.step, row[1], row[2], row[3], row[4], row[5],
                     row[6]);
        if (std::fflush(csv) != 0 || std::ferror(csv))
          fail_run("cannot write " + o.out_dir + "/diagnostics.csv: " + std::strerror(errno));
      }
    }
  };
  model.submit_diagnostics();

  // The stepping loop: steps are submitted ahead of execution (a few in flight). Output records and
  // checkpoints are written at chunk boundaries; a SIGINT/SIGTERM stops the run after the step it
  // arrives in (with several ranks: the step every rank agrees on) with a final checkpoint.
  auto multiple = [](long step, int every) { return every > 0 && step % every == 0; };
  const SteppingLoop loop(cfg.steps, {cfg.output_interval, cfg.checkpoint_interval});
  Progress progress(first_step, cfg.steps, cfg.dt, cfg.progress_seconds, o.progress && rank == 0);
  rt.wait_all();
  const auto t_start = Clock::now();
  SteppingHooks hooks;
  hooks.step = [&] { return model.step(); };
  hooks.submit_step = [&] { model.submit_steps(1); };
  hooks.after_step = [&] {
    progress.update(std::max<long>(first_step, model.step() - 3), seconds_since(t_start) - output_s);
  };
  hooks.at_chunk_end = [&](int stopped) {
    if (stopped || model.step() >= cfg.steps) return;
    if (multiple(model.step(), cfg.output_interval)) write_record();
    if (multiple(model.step(), cfg.checkpoint_interval)) write_checkpoint();
    record_diagnostics(false);
  };
  const int stopped = loop.run(hooks, rank, rt.size()).signal;
  rt.wait_all();
  const long steps_run = model.step() - first_step;
  const double loop_s = seconds_since(t_start) - output_s;
  if (stopped && rank == 0)
    std::printf("taskdycore: stopped by signal %d after step %ld; writing a checkpoint\n", stopped, model.step());
  progress.finish(model.step(), loop_s);

  const Moments m1 = model.moments();
  const double t_end = model.time();
  write_record();
  write_checkpoint();
  record_diagnostics(true);
  if (output) output->finish();
  if (csv && std::fclose(csv) != 0) fail_run("cannot write " + o.out_dir + "/diagnostics.csv: " + std::strerror(errno));
  if (rank == 0 && !o.out_dir.empty() && cfg.diagnostics_interval > 0) {
    std::lock_guard<std::mutex> lock(hdf5);
    or_fail_run([&] {
      io::write_time_series(o.out_dir + "/diagnostics.h5",
                            {"step", "time", "mass", "mass_rel_change", "variance", "min", "max"}, series,
                            {{"title", "taskdycore diagnostics"},
                             {"case", cfg.name},
                             {"mass", "sum of G psi dV (tracer content)"},
                             {"variance", "sum of G psi^2 dV"}});
    });
  }
  model.gather(global);  // for the validation below (the record above is written asynchronously)

  nlohmann::json j;
  if (stopped) j["interrupted_by_signal"] = stopped;  // every rank exits with 128 + signal
  if (rank != 0) return j;
  const double mass1 = dd_value(m1.mass);
  nlohmann::json validation = {
      {"mass_initial", mass0}, {"mass_final", mass1}, {"mass_rel_change", std::fabs(mass1 - mass0) / std::fabs(mass0)},
      {"min", m1.min},         {"max", m1.max},       {"initial_min", min0},
      {"initial_max", max0}};
  if (ac.has_exact(t_end)) {
    const ErrorNorms e = error_norms(cfg, ac, global, t_end);
    validation["l2_error"] = e.l2;
    validation["linf_error"] = e.linf;
  }
  j["case"] = cfg.name;
  j["flow"] = to_string(cfg.flow);
  j["grid"] = grid_json(cfg);
  j["tiles"] = {{"x", cfg.tiles_x}, {"y", cfg.tiles_y}, {"halo", cfg.halo}, {"overlap", cfg.overlap}};
  j["ranks"] = rt.size();
  j["workers"] = {{"cpu", rt.cpu_workers()}, {"cuda", rt.cuda_workers()}};
  j["scheduler"] = rt.scheduler();
  j["mpdata"] = {{"iord", cfg.mpdata.iord}, {"fct", cfg.mpdata.fct}, {"iga", cfg.mpdata.iga}};
  j["steps"] = model.step();
  j["steps_this_run"] = steps_run;
  if (!o.restart.empty()) j["restarted_from"] = {{"file", o.restart}, {"step", first_step}};
  j["dt"] = cfg.dt;
  j["time_end"] = t_end;
  j["max_courant"] = max_courant;
  j["ms_per_step"] = 1e3 * loop_s / std::max<long>(1, steps_run);
  j["mcells_per_s"] = cfg.grid.cells() * steps_run / loop_s / 1e6;
  j["stepping_s"] = loop_s;
  j["output_s"] = output_s;
  j["validation"] = validation;
  j["field_checksum"] = checksum_hex(global);
  if (cfg.diagnostics_interval > 0) {
    j["diagnostics"] = {{"interval", cfg.diagnostics_interval}, {"records", series[0].size()}};
    if (!series[3].empty()) {
      double worst = 0;
      for (double v : series[3]) worst = std::max(worst, std::fabs(v));
      j["diagnostics"]["max_abs_mass_rel_change"] = worst;
    }
  }
  if (output && output->written())
    j["output"] = {{"fields", "fields.h5"},
                   {"xdmf", "fields.xmf"},
                   {"records", output->records()},
                   {"checkpoint", "checkpoint.h5"}};
  return j;
}

}  // namespace tdc
