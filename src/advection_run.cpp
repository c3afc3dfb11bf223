#include "advection_run.hpp"

#include <starpu.h>
#include <starpu_mpi.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "../codelets/common/codelet.hpp"
#include "../graph/halo_exchange.hpp"
#include "../graph/mpdata_graph.hpp"
#include "../graph/reductions.hpp"
#include "advection_case.hpp"
#include "checksum.hpp"
#include "io/field_writer.hpp"
#include "progress.hpp"

namespace tdc {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Fills the owned tiles of every field from the analytic case (ghost ring included, with the
// periodic images, so Courant numbers and G need no exchange).
void initialise(const Decomposition& d, const AdvectionCase& ac, TiledField& psi, TiledField* c[3], TiledField* s[3],
                TiledField& g) {
  const TileLayout& L = d.layout();
  for (int t = 0; t < d.tiles(); ++t) {
    if (!psi.owned(t)) continue;
    const int ox = d.origin_x(t), oy = d.origin_y(t);
    for (int k = 0; k < L.nz; ++k)
      for (int j = -L.halo; j < L.ny + L.halo; ++j)
        for (int i = -L.halo; i < L.nx + L.halo; ++i) {
          const std::ptrdiff_t n = L.at(i, j, k);
          psi.host(t)[n] = ac.initial(ox + i, oy + j, k);
          g.host(t)[n] = ac.density(k);
          double cf[3];
          ac.face_courant(ox + i, oy + j, k, cf);
          for (int q = 0; q < 3; ++q) {
            c[q]->host(t)[n] = cf[q];
            if (s[q]) s[q]->host(t)[n] = cf[q];
          }
        }
  }
}

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
  const Decomposition d(cfg.grid, cfg.tiles_x, cfg.tiles_y, cfg.halo, rt.size());
  const AdvectionCase ac(cfg);
  const double max_courant = ac.max_courant();

  TiledField psi_a("psi", d, rank), psi_b("psi_next", d, rank);
  TiledField c1("c1", d, rank), c2("c2", d, rank), c3("c3", d, rank), g("G", d, rank);
  std::unique_ptr<TiledField> s1, s2, s3;
  if (ac.time_dependent()) {
    s1 = std::make_unique<TiledField>("s1", d, rank);
    s2 = std::make_unique<TiledField>("s2", d, rank);
    s3 = std::make_unique<TiledField>("s3", d, rank);
  }
  TileStrips strips(d, rank);
  TiledField* c[3] = {&c1, &c2, &c3};
  TiledField* s[3] = {s1.get(), s2.get(), s3.get()};
  initialise(d, ac, psi_a, c, s, g);

  MpdataFields fields{{&psi_a, &psi_b}, &c1, &c2, &c3, &g, s1.get(), s2.get(), s3.get(), &strips};
  const MpdataGraph graph(d, cfg.mpdata, cfg.overlap);
  MomentsReduction moments(d, rank);

  submit_halo_exchange(d, psi_a, strips);
  moments.submit(psi_a, g, kPrioBody);
  const Moments m0 = moments.collect();

  std::unique_ptr<io::FieldWriter> writer;
  std::vector<double> global;
  double output_s = 0;
  auto write_record = [&](const TiledField& f, double time) {
    if (o.out_dir.empty()) return;
    const auto t0 = Clock::now();
    gather_field(d, f, rank, global);
    if (rank == 0) {
      if (!writer)
        writer = std::make_unique<io::FieldWriter>(
            o.out_dir + "/fields.h5", axes_of(cfg.grid), std::vector<std::string>{"psi"},
            std::vector<std::pair<std::string, std::string>>{{"title", "taskdycore MPDATA advection"},
                                                             {"case", cfg.name},
                                                             {"flow", to_string(cfg.flow)}},
            std::vector<std::pair<std::string, std::string>>{{"psi", "1"}});
      writer->append(time, {global.data()});
    }
    output_s += seconds_since(t0);
  };
  write_record(psi_a, 0.0);

  // The stepping loop: submit steps ahead, at most `window` steps in flight on this rank.
  int local_tiles = 0;
  for (int t = 0; t < d.tiles(); ++t) local_tiles += d.owner(t) == rank;
  const int window_steps = 3;
  const unsigned window_tasks = unsigned(std::max(1, window_steps * local_tiles * (graph.tasks_per_tile() + 1)));
  Progress progress(cfg.steps, cfg.dt, cfg.progress_seconds, o.progress && rank == 0);
  rt.wait_all();
  const auto t_start = Clock::now();
  for (long n = 0; n < cfg.steps; ++n) {
    graph.submit_step(fields, n, ac.time_factor(n * cfg.dt));
    if (cfg.output_interval > 0 && (n + 1) % cfg.output_interval == 0 && n + 1 < cfg.steps) {
      write_record(*fields.psi[(n + 1) % 2], (n + 1) * cfg.dt);
    } else {
      starpu_task_wait_for_n_submitted(window_tasks);
    }
    progress.update(std::max<long>(0, n + 1 - window_steps), seconds_since(t_start) - output_s);
  }
  rt.wait_all();
  const double loop_s = seconds_since(t_start) - output_s;
  progress.finish(cfg.steps, loop_s);

  TiledField& final_psi = *fields.psi[cfg.steps % 2];
  moments.submit(final_psi, g, kPrioBody);
  const Moments m1 = moments.collect();
  gather_field(d, final_psi, rank, global);
  const double t_end = cfg.steps * cfg.dt;
  if (!o.out_dir.empty() && rank == 0) {
    const auto t0 = Clock::now();
    if (!writer) write_record(final_psi, t_end);  // (writer exists unless out_dir is empty)
    else writer->append(t_end, {global.data()});
    output_s += seconds_since(t0);
  }

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
  if (!o.out_dir.empty()) j["output"] = {{"fields", "fields.h5"}, {"xdmf", "fields.xmf"}, {"records", writer->records()}};
  return j;
}

}  // namespace tdc
