#include "advection_run.hpp"

#include <starpu.h>
#include <starpu_mpi.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "advection_model.hpp"
#include "checksum.hpp"
#include "io/field_writer.hpp"
#include "progress.hpp"

namespace tdc {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

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
  return {{"nx", c.grid.nx}, {"ny", c.grid.ny}, {"nz", c.grid.nz}, {"lx", c.grid.lx}, {"ly", c.grid.ly},
          {"lz", c.grid.lz}, {"z_boundary", c.z_boundary == ZBoundary::Rigid ? "rigid" : "periodic"}};
}

io::GridAxes axes_of(const Grid& g) {
  io::GridAxes a;
  for (int i = 0; i < g.nx; ++i) a.x.push_back((i + 0.5) * g.dx());
  for (int j = 0; j < g.ny; ++j) a.y.push_back((j + 0.5) * g.dy());
  for (int k = 0; k < g.nz; ++k) a.z.push_back((k + 0.5) * g.dz());
  return a;
}

}  // namespace

void check_courant(const AdvectionConfig& cfg) {
  const double c = AdvectionCase(cfg).max_courant();
  if (c > 1.0)
    throw ConfigError("time.dt", "the largest Courant number (sum of a cell's outflow Courant numbers) is " +
                                     std::to_string(c) + " > 1: MPDATA would be unstable; reduce time.dt");
}

nlohmann::json run_advection(const AdvectionConfig& cfg, Runtime& rt, const RunOptions& o) {
  const int rank = rt.rank();
  AdvectionModel model(cfg, rank, rt.size());
  const AdvectionCase& ac = model.analytic();
  const double max_courant = ac.max_courant();
  const Moments m0 = model.moments();

  std::unique_ptr<io::FieldWriter> writer;
  std::vector<double> global;
  double output_s = 0;
  auto write_record = [&]() {  // collective: gathers psi, rank 0 appends it
    if (o.out_dir.empty()) return;
    const auto t0 = Clock::now();
    model.gather(global);
    if (rank == 0) {
      if (!writer)
        writer = std::make_unique<io::FieldWriter>(
            o.out_dir + "/fields.h5", axes_of(cfg.grid), std::vector<std::string>{"psi"},
            std::vector<std::pair<std::string, std::string>>{{"title", "taskdycore MPDATA advection"},
                                                             {"case", cfg.name},
                                                             {"flow", to_string(cfg.flow)}},
            std::vector<std::pair<std::string, std::string>>{{"psi", "1"}});
      writer->append(model.time(), {global.data()});
    }
    output_s += seconds_since(t0);
  };
  write_record();

  // The stepping loop: steps are submitted ahead of execution (a few in flight), output records
  // gathered between chunks.
  Progress progress(cfg.steps, cfg.dt, cfg.progress_seconds, o.progress && rank == 0);
  rt.wait_all();
  const auto t_start = Clock::now();
  const long chunk = cfg.output_interval > 0 ? cfg.output_interval : cfg.steps;
  while (model.step() < cfg.steps) {
    const long n = std::min<long>(chunk, cfg.steps - model.step());
    for (long s = 0; s < n; ++s) {  // one step at a time so that progress lines can appear
      model.submit_steps(1);
      progress.update(std::max<long>(0, model.step() - 3), seconds_since(t_start) - output_s);
    }
    if (model.step() < cfg.steps) write_record();
  }
  rt.wait_all();
  const double loop_s = seconds_since(t_start) - output_s;
  progress.finish(cfg.steps, loop_s);

  const Moments m1 = model.moments();
  const double t_end = model.time();
  write_record();
  if (o.out_dir.empty()) model.gather(global);

  nlohmann::json j;
  if (rank != 0) return j;
  const double mass0 = dd_value(m0.mass), mass1 = dd_value(m1.mass);
  nlohmann::json validation = {{"mass_initial", mass0},
                               {"mass_final", mass1},
                               {"mass_rel_change", std::fabs(mass1 - mass0) / std::fabs(mass0)},
                               {"min", m1.min},
                               {"max", m1.max},
                               {"initial_min", m0.min},
                               {"initial_max", m0.max}};
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
  j["steps"] = cfg.steps;
  j["dt"] = cfg.dt;
  j["time_end"] = t_end;
  j["max_courant"] = max_courant;
  j["ms_per_step"] = 1e3 * loop_s / cfg.steps;
  j["mcells_per_s"] = cfg.grid.cells() * cfg.steps / loop_s / 1e6;
  j["stepping_s"] = loop_s;
  j["output_s"] = output_s;
  j["validation"] = validation;
  j["field_checksum"] = checksum_hex(global);
  if (writer) j["output"] = {{"fields", "fields.h5"}, {"xdmf", "fields.xmf"}, {"records", writer->records()}};
  return j;
}

}  // namespace tdc
