#include "dycore_run.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "checksum.hpp"
#include "grid_axes.hpp"
#include "io/field_writer.hpp"
#include "dycore_model.hpp"

namespace tdc {

nlohmann::json run_dycore(const DycoreConfig& cfg, Runtime& rt, const std::string& out_dir, bool progress) {
  DycoreModel model(cfg, rt.rank(), rt.size());
  std::vector<FlowDiagnostics> records;
  std::string aborted;  // why the run stopped early (an unstable flow), or empty
  // Records arrive a few intervals late (asynchronous diagnostics): each is printed, checked for
  // instability and used to size the solver budget when it arrives.
  auto take = [&](bool finish) {
    for (const FlowDiagnostics& r : model.take_diagnostics(finish)) {
      records.push_back(r);
      if (progress && rt.rank() == 0 && r.step > 0) {
        std::printf("step %ld t %.4f  KE %.8g  max|div| %.3g  Courant %.3f  solver %d its", r.step, r.time,
                    r.kinetic_energy, r.max_divergence, r.max_courant, r.solver_iterations);
        if (model.has_theta()) std::printf("  bubble z %.2f", r.theta_centroid_z);
        std::printf("\n");
        std::fflush(stdout);
      }
      // Rank 0 decides (it holds the totals); every rank must leave the loop together.
      int unstable = rt.rank() == 0 && !(r.max_courant <= cfg.max_courant && std::isfinite(r.kinetic_energy));
      MPI_Bcast(&unstable, 1, MPI_INT, 0, MPI_COMM_WORLD);
      if (unstable && aborted.empty()) {
        char why[200];
        std::snprintf(why, sizeof why, "unstable at step %ld: Courant number %.3g above time.max_courant = %.3g "
                      "(reduce time.dt)", r.step, r.max_courant, cfg.max_courant);
        aborted = why;
      }
    }
  };
  // Field records (fields.h5 + fields.xmf): gathered on rank 0 and written there, synchronously (the
  // steps wait meanwhile; the advection model's writer thread is not used here yet).
  std::unique_ptr<io::FieldWriter> writer;
  long fields_written_at = -1;
  nlohmann::json field_checksums = nlohmann::json::array();  // of u, v, w at each record (CPU/GPU comparisons)
  double output_s = 0;
  auto write_fields = [&]() {
    const auto w0 = std::chrono::steady_clock::now();
    std::vector<std::vector<double>> f;
    model.gather_fields(f);
    fields_written_at = model.step();
    if (rt.rank() == 0) {
      field_checksums.push_back({{"step", model.step()},
                                 {"velocity_checksum", checksum_hex(f[0]) + checksum_hex(f[1]) + checksum_hex(f[2])}});
      const auto names = model.field_names();
      if (!writer) {
        std::vector<std::pair<std::string, std::string>> units{
            {"u", "m s-1"}, {"v", "m s-1"}, {"w", "m s-1"}, {"p", "m2 s-2"}};
        if (model.has_theta()) units.push_back({"theta", "K"});
        writer = std::make_unique<io::FieldWriter>(
            (std::filesystem::path(out_dir) / "fields.h5").string(), cell_centre_axes(cfg.grid), names,
            std::vector<std::pair<std::string, std::string>>{{"title", "taskdycore NFT dynamical core"},
                                                             {"case", cfg.name}},
            units);
      }
      std::vector<const double*> ptrs;
      for (const auto& x : f) ptrs.push_back(x.data());
      writer->append(model.step() * cfg.dt, ptrs);
    }
    output_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  };
  int want_fields = rt.rank() == 0 && cfg.write_fields && !out_dir.empty();  // rank 0 alone knows out_dir
  MPI_Bcast(&want_fields, 1, MPI_INT, 0, MPI_COMM_WORLD);
  const bool fields = want_fields != 0;
  auto next_multiple = [](long s, long m) { return (s / m + 1) * m; };
  const auto t0 = std::chrono::steady_clock::now();
  model.submit_diagnostics();
  if (fields && cfg.fields_interval > 0) write_fields();
  while (model.step() < cfg.steps && aborted.empty()) {
    long stop = std::min<long>(cfg.steps, next_multiple(model.step(), cfg.diagnostics_interval));
    if (fields && cfg.fields_interval > 0) stop = std::min(stop, next_multiple(model.step(), cfg.fields_interval));
    model.submit_steps(stop - model.step());
    if (model.step() % cfg.diagnostics_interval == 0 || model.step() == cfg.steps) model.submit_diagnostics();
    if (fields && cfg.fields_interval > 0 && model.step() % cfg.fields_interval == 0) write_fields();
    take(false);
  }
  if (fields && fields_written_at != model.step()) write_fields();
  rt.wait_all();
  const double stepping = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - output_s;
  take(true);
  // The bubble's mirror symmetries need whole fields: once, from the final state, gathered.
  std::vector<double> v[3];
  const FlowDiagnostics final_state = model.has_theta() ? model.diagnose(&v) : FlowDiagnostics{};
  if (!model.has_theta()) model.gather(v);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  nlohmann::json j;
  if (rt.rank() != 0) return j;

  nlohmann::json steps = nlohmann::json::array(), time = steps, ke = steps, ens = steps, div = steps, its = steps;
  double max_div = 0;
  bool grows = false, converged = true;
  for (std::size_t n = 0; n < records.size(); ++n) {
    const auto& r = records[n];
    steps.push_back(r.step);
    time.push_back(r.time);
    ke.push_back(r.kinetic_energy);
    ens.push_back(r.enstrophy);
    div.push_back(r.max_divergence);
    if (n > 0) {
      its.push_back(r.solver_iterations);
      max_div = std::max(max_div, r.max_divergence);
      converged = converged && r.solver_converged;
      grows = grows || r.kinetic_energy > records[n - 1].kinetic_energy;
    }
  }
  const double ms = 1e3 * stepping / std::max(1L, model.step());
  j["case"] = cfg.name;
  j["kind"] = "dycore";
  j["grid"] = {{"nx", cfg.grid.nx}, {"ny", cfg.grid.ny}, {"nz", cfg.grid.nz}};
  j["tiles"] = {cfg.tiles_x, cfg.tiles_y};
  j["ranks"] = rt.size();
  j["workers"] = {{"cpu", rt.cpu_workers()}, {"cuda", rt.cuda_workers()}};
  j["scheduler"] = rt.scheduler();
  j["dt"] = cfg.dt;
  j["steps"] = cfg.steps;
  j["steps_done"] = model.step();
  if (!aborted.empty()) j["aborted"] = aborted;
  j["ms_per_step"] = ms;
  j["mcells_per_s"] = cfg.grid.cells() / (ms * 1e-3) / 1e6;
  j["wall_seconds"] = wall;
  j["output_seconds"] = output_s;
  j["solver"] = {{"method", to_string(cfg.solver.method)}, {"max_iter_per_step", cfg.solver_budget},
                 {"divergence_tolerance", cfg.divergence_tolerance}, {"iterations", its},
                 {"converged_every_step_checked", converged}};
  j["validation"] = {{"max_divergence", max_div},
                     {"divergence_below_tolerance", max_div <= cfg.divergence_tolerance},
                     {"kinetic_energy", {{"step", steps}, {"time", time}, {"value", ke}}},
                     {"enstrophy", {{"step", steps}, {"time", time}, {"value", ens}}},
                     {"max_divergence_series", div},
                     {"kinetic_energy_never_grows", !grows}};
  // -dE/dt by centred differences of the records; for Re = 1600 the published DNS peak is about
  // 0.0127 near t = 9 (the Taylor-Green benchmark of the high-order CFD workshops).
  nlohmann::json rate = nlohmann::json::array(), rate_time = rate;
  double peak = 0, peak_time = 0;
  for (std::size_t n = 1; n + 1 < records.size(); ++n) {
    const double e = -(records[n + 1].kinetic_energy - records[n - 1].kinetic_energy) /
                     (records[n + 1].time - records[n - 1].time);
    rate.push_back(e);
    rate_time.push_back(records[n].time);
    if (e > peak) {
      peak = e;
      peak_time = records[n].time;
    }
  }
  j["validation"]["dissipation_rate"] = {{"time", rate_time}, {"value", rate}};
  j["validation"]["dissipation_peak"] = {{"value", peak}, {"time", peak_time}};
  if (cfg.viscosity > 0) {
    j["validation"]["dissipation_peak"]["reference_re1600"] = {{"value", 0.0127}, {"time", 9.0}};
    j["validation"]["dissipation_peak"]["relative_difference"] = (peak - 0.0127) / 0.0127;
  }
  j["viscosity"] = cfg.viscosity;
  nlohmann::json courant = nlohmann::json::array(), l1 = courant, l2 = courant, linf = courant;
  for (const auto& r : records) {
    courant.push_back(r.max_courant);
    l1.push_back(r.vorticity_l1);
    l2.push_back(r.vorticity_l2);
    linf.push_back(r.vorticity_max);
  }
  j["validation"]["max_courant"] = courant;
  j["validation"]["vorticity_magnitude"] = {{"l1", l1}, {"l2", l2}, {"max", linf}};
  if (model.has_theta()) {
    // The thermal bubble: rise height (theta'-weighted centroid), theta' conservation (MPDATA is
    // conservative and the lids carry no flux), the energy budget (KE + PE is conserved by the
    // continuous equations; the discrete exchange term w b theta' at cell centres and MPDATA's face
    // fluxes of theta' agree to second order in dx, so the budget error must converge like dx^2),
    // mirror symmetry in x, y and the diagonal.
    nlohmann::json z = nlohmann::json::array(), tmax = z, pe = z, total = z, tmean = z;
    double worst_drift = 0, budget = 0, ke_max = 0;
    for (std::size_t n = 0; n < records.size(); ++n) {
      const auto& r = records[n];
      z.push_back(r.theta_centroid_z);
      tmax.push_back(r.theta_max);
      tmean.push_back(r.theta_mean);
      pe.push_back(r.potential_energy);
      total.push_back(r.kinetic_energy + r.potential_energy);
      worst_drift = std::max(worst_drift, std::fabs(r.theta_mean - records[0].theta_mean) / records[0].theta_mean);
      budget = std::max(budget, std::fabs(r.kinetic_energy + r.potential_energy - records[0].kinetic_energy -
                                          records[0].potential_energy));
      ke_max = std::max(ke_max, r.kinetic_energy);
    }
    const auto& b = model.startup_solve();
    j["buoyancy"] = {{"gravity", cfg.gravity}, {"theta0", cfg.theta0}, {"amplitude", cfg.bubble.amplitude},
                     {"radius", cfg.bubble.radius}, {"centre", {cfg.bubble.x, cfg.bubble.y, cfg.bubble.z}},
                     {"balance_solve", {{"iterations", b.iterations}, {"converged", b.converged}}}};
    j["validation"]["rise_height"] = {{"time", time}, {"centroid_z", z}, {"theta_max", tmax}};
    j["validation"]["theta_mean"] = tmean;
    j["validation"]["theta_relative_change_max"] = worst_drift;
    j["validation"]["total_energy"] = {{"time", time}, {"value", total}, {"potential", pe}};
    j["validation"]["energy_budget_error"] = ke_max > 0 ? budget / ke_max : 0.0;  // max |E - E0| / max KE
    j["validation"]["symmetry"] = {{"step", final_state.step},
                                   {"theta_max_relative_asymmetry", final_state.theta_asymmetry},
                                   {"w_max_relative_asymmetry", final_state.w_asymmetry}};
  }
  if (cfg.initial == InitialState::TaylorGreenModified) {
    const auto& b = model.startup_solve();
    j["initial_projection"] = {{"iterations", b.iterations}, {"converged", b.converged}};
  }
  j["velocity_checksum"] = checksum_hex(v[0]) + checksum_hex(v[1]) + checksum_hex(v[2]);
  j["field_records"] = field_checksums;
  if (!out_dir.empty()) {
    std::ofstream csv(std::filesystem::path(out_dir) / "diagnostics.csv");
    csv << "step,time,kinetic_energy,enstrophy,vorticity_l1,vorticity_l2,vorticity_max,max_divergence,max_courant,"
           "solver_iterations,solver_residual";
    if (model.has_theta()) csv << ",theta_mean,theta_max,theta_centroid_z,potential_energy";
    csv << "\n";
    for (const auto& r : records) {
      char line[512];
      std::snprintf(line, sizeof line, "%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.6e,%.6f,%d,%.6e", r.step, r.time,
                    r.kinetic_energy, r.enstrophy, r.vorticity_l1, r.vorticity_l2, r.vorticity_max, r.max_divergence,
                    r.max_courant, r.solver_iterations, r.solver_residual);
      csv << line;
      if (model.has_theta()) {
        std::snprintf(line, sizeof line, ",%.17g,%.17g,%.17g,%.17g", r.theta_mean, r.theta_max, r.theta_centroid_z,
                      r.potential_energy);
        csv << line;
      }
      csv << "\n";
    }
  }
  return j;
}

}  // namespace tdc
