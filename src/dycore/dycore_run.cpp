#include "dycore_run.hpp"

#include "density_current.hpp"

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <mutex>

#include "../../graph/runtime/stop_request.hpp"
#include "../io/checkpoint.hpp"
#include "../io/time_series.hpp"
#include "../run/checkpoints.hpp"
#include "../run/checksum.hpp"
#include "../run/config_error.hpp"
#include "../run/field_records.hpp"
#include "../run/run_failure.hpp"
#include "../run/stepping.hpp"
#include "../run/timing.hpp"
#include "dycore_model.hpp"

namespace tdc {

namespace {

// Relative rise of the kinetic energy between two records that still counts as "not growing": far
// above the round-off of its compensated sums (~1e-16), far below any physical gain.
constexpr double kKineticEnergyRoundOff = 1e-12;

// A diagnostics record as a row of named numbers: the columns of diagnostics.csv and diagnostics.h5,
// and the series a checkpoint carries (so a resumed run reports the whole run).
struct Column {
  const char* name;
  double FlowDiagnostics::*value;  // null: one of the integer columns below
  const char* meaning;
};
constexpr Column kColumns[] = {
    {"step", nullptr, "time step"},
    {"time", &FlowDiagnostics::time, "model time"},
    {"kinetic_energy", &FlowDiagnostics::kinetic_energy, "(1/V) integral of |v|^2/2"},
    {"enstrophy", &FlowDiagnostics::enstrophy, "(1/V) integral of |curl v|^2/2"},
    {"vorticity_l1", &FlowDiagnostics::vorticity_l1, "(1/V) integral of |curl v|"},
    {"vorticity_l2", &FlowDiagnostics::vorticity_l2, "sqrt((1/V) integral of |curl v|^2)"},
    {"vorticity_max", &FlowDiagnostics::vorticity_max, "max |curl v|"},
    {"max_divergence", &FlowDiagnostics::max_divergence, "max |D v| (centred divergence)"},
    {"max_courant", &FlowDiagnostics::max_courant, "max of dt (|u|/dx + |v|/dy + |w|/dz)"},
    {"solver_iterations", nullptr, "iterations of the latest pressure solve (-1: unfinished)"},
    {"solver_residual", &FlowDiagnostics::solver_residual,
     "its final residual norm (2-norm; max norm for the direct solve)"},
    {"solver_converged", nullptr, "1 if it reached the tolerance"},
    {"theta_mean", &FlowDiagnostics::theta_mean, "(1/V) integral of theta' (heat content), K"},
    {"theta_change", &FlowDiagnostics::theta_change, "relative change of the heat content since step 0"},
    {"theta_max", &FlowDiagnostics::theta_max, "max theta', K"},
    {"theta_centroid_z", &FlowDiagnostics::theta_centroid_z, "theta'-weighted mean height (bubble), m"},
    {"potential_energy", &FlowDiagnostics::potential_energy, "-(g/theta_0)(1/V) integral of theta' z"},
};
constexpr std::size_t kThetaColumns = 5;  // the last ones, with theta' only

std::size_t column_count(bool theta) { return std::size(kColumns) - (theta ? 0 : kThetaColumns); }

double column_value(const FlowDiagnostics& r, const Column& c) {
  if (c.value) return r.*c.value;
  const std::string name = c.name;
  return name == "step"                ? double(r.step)
         : name == "solver_iterations" ? double(r.solver_iterations)
                                       : (r.solver_converged ? 1.0 : 0.0);
}

void set_column(FlowDiagnostics& r, const Column& c, double v) {
  if (c.value) {
    r.*c.value = v;
    return;
  }
  const std::string name = c.name;
  if (name == "step")
    r.step = long(v);
  else if (name == "solver_iterations")
    r.solver_iterations = int(v);
  else
    r.solver_converged = v != 0;
}

// The records of a checkpoint's series that the straight run would have made: step 0 and the
// multiples of diagnostics.interval up to the checkpoint (the end of a shorter run adds its last step).
std::vector<FlowDiagnostics> records_of(const io::CheckpointState& s, const DycoreConfig& cfg, bool theta) {
  std::vector<FlowDiagnostics> out;
  if (s.series.empty()) return out;
  for (std::size_t n = 0; n < s.series[0].size(); ++n) {
    FlowDiagnostics r;
    for (std::size_t c = 0; c < column_count(theta); ++c)
      for (std::size_t k = 0; k < s.series_names.size(); ++k)
        if (s.series_names[k] == kColumns[c].name) set_column(r, kColumns[c], s.series[k].at(n));
    if (r.step <= s.step && r.step % cfg.diagnostics_interval == 0) out.push_back(r);
  }
  return out;
}

void write_csv_row(std::FILE* csv, const FlowDiagnostics& r, bool theta) {
  for (std::size_t c = 0; c < column_count(theta); ++c) {
    const double v = column_value(r, kColumns[c]);
    if (c) std::fputc(',', csv);
    if (kColumns[c].value)
      std::fprintf(csv, "%.17g", v);
    else
      std::fprintf(csv, "%ld", long(v));
  }
  std::fputc('\n', csv);
}

}  // namespace

void check_dycore_restart(const DycoreConfig& cfg, const std::string& path) {
  check_restart_file(path, dycore_trajectory_fingerprint(cfg), DycoreModel::checkpoint_fields(cfg), cfg.grid,
                     cfg.steps);
}

nlohmann::json run_dycore(const DycoreConfig& cfg, Runtime& rt, const std::string& out_dir, bool progress,
                          const std::string& restart_path) {
  const int rank = rt.rank();
  std::unique_ptr<io::CheckpointState> restart =
      read_restart(restart_path, dycore_trajectory_fingerprint(cfg), DycoreModel::checkpoint_fields(cfg));
  DycoreModel model(cfg, rank, rt.size(), restart.get());
  const bool theta = model.has_theta();
  std::vector<FlowDiagnostics> records;
  if (restart) records = records_of(*restart, cfg, theta);
  restart.reset();  // the fields are in the tiles now
  const long first_step = model.step();
  // A stratified run's energy (stratified_energy) at its start, from gathered fields (every rank
  // takes part, rank 0 sums).
  const bool stratified = theta && cfg.environment.stratified();
  const std::vector<double> rho =  // rho_0(z) / rho_0(0) where anelastic, else empty
      environment_density(cfg.environment, cfg.grid.nz, cfg.grid.dz(), cfg.theta0, cfg.gravity);
  double energy_start = 0.0;
  if (stratified) {
    std::vector<double> v0[3], th0;
    model.gather(v0);
    model.gather_theta(th0);
    if (rank == 0) energy_start = stratified_energy(cfg.environment, cfg.grid, cfg.theta0, cfg.gravity, v0, th0, rho);
  }

  // Rank 0 alone knows out_dir: it decides what is written, every rank takes part.
  const bool fields = first_nonzero_over_ranks(rank == 0 && cfg.write_fields && !out_dir.empty(), rank, rt.size());
  const bool checkpoints =
      first_nonzero_over_ranks(rank == 0 && cfg.write_checkpoint && !out_dir.empty(), rank, rt.size());
  const auto out = [&](const char* name) { return (std::filesystem::path(out_dir) / name).string(); };

  // diagnostics.csv grows as records arrive (a long run can be watched); diagnostics.h5 at the end.
  std::FILE* csv = nullptr;
  if (rank == 0 && !out_dir.empty()) {
    csv = std::fopen(out("diagnostics.csv").c_str(), "w");
    if (!csv) fail_run("cannot write " + out("diagnostics.csv") + ": " + std::strerror(errno));
    for (std::size_t c = 0; c < column_count(theta); ++c) std::fprintf(csv, "%s%s", c ? "," : "", kColumns[c].name);
    std::fputc('\n', csv);
    for (const auto& r : records) write_csv_row(csv, r, theta);
    if (std::fflush(csv) != 0) fail_run("cannot write " + out("diagnostics.csv") + ": " + std::strerror(errno));
  }
  std::string aborted;            // why the run stopped early (an unstable flow), or empty
  bool courant_exceeded = false;  // some step's Courant number passed time.max_courant (or was not finite)
  // Records arrive a few intervals late (asynchronous diagnostics): each is printed, checked for
  // instability and written to the CSV when it arrives.
  auto take = [&](bool finish) {  // collective
    for (FlowDiagnostics r : model.take_diagnostics(finish)) {
      const double theta0 = records.empty() ? r.theta_mean : records.front().theta_mean;
      r.theta_change = theta0 != 0.0 ? (r.theta_mean - theta0) / theta0 : 0.0;
      records.push_back(r);
      if (csv) {
        write_csv_row(csv, r, theta);
        if (std::fflush(csv) != 0 || std::ferror(csv))
          fail_run("cannot write " + out("diagnostics.csv") + ": " + std::strerror(errno));
      }
      if (progress && rank == 0 && r.step > 0) {
        // (anelastic: the records' D v is not the constraint D(rho v), which the summary measures)
        std::printf("step %ld t %.4f  KE %.8g  max|%s| %.3g  Courant %.3f  solver %d its", r.step, r.time,
                    r.kinetic_energy, cfg.environment.anelastic ? "div v" : "div", r.max_divergence, r.max_courant,
                    r.solver_iterations);
        if (cfg.initial == InitialState::ThermalBubble) std::printf("  bubble z %.2f", r.theta_centroid_z);
        std::printf("\n");
        std::fflush(stdout);
      }
      // Rank 0 decides (it holds the totals); every rank must leave the loop together.
      const int unstable = first_nonzero_over_ranks(
          rank == 0 && !(r.max_courant <= cfg.max_courant && std::isfinite(r.kinetic_energy)), rank, rt.size());
      courant_exceeded = courant_exceeded || !(r.max_courant <= cfg.max_courant);
      if (unstable && aborted.empty()) {
        char why[200];
        std::snprintf(why, sizeof why,
                      "unstable at step %ld: Courant number %.3g above time.max_courant = %.3g "
                      "(reduce time.dt)",
                      r.step, r.max_courant, cfg.max_courant);
        aborted = why;
      }
    }
  };

  // Field records (fields.h5 + fields.xmf) overlap the steps: snapshot copies (tasks), transfers to
  // rank 0, and a writer thread there. The serial HDF5 library is not thread-safe: every HDF5 call of
  // the run holds `hdf5`.
  std::mutex hdf5;
  nlohmann::json field_checksums = nlohmann::json::array();  // of u, v, w at each record (CPU/GPU comparisons)
  std::unique_ptr<FieldRecords> output;
  if (fields) {
    FieldRecords::Attributes units{{"u", "m s-1"}, {"v", "m s-1"}, {"w", "m s-1"}, {"p", "m2 s-2"}};
    if (theta) units.push_back({"theta", "K"});
    output = std::make_unique<FieldRecords>(
        model.decomposition(), rank, out("fields.h5"), cfg.grid, model.field_names(),
        FieldRecords::Attributes{{"title", "taskdycore NFT dynamical core"}, {"case", cfg.name}}, units, hdf5,
        [&](double time, const std::vector<std::vector<double>>& f) {
          field_checksums.push_back(
              {{"step", std::lround(time / cfg.dt)},
               {"velocity_checksum", checksum_hex(f[0]) + checksum_hex(f[1]) + checksum_hex(f[2])}});
        });
  }
  double output_s = 0;
  long fields_written_at = -1;
  auto write_fields = [&]() {  // collective; returns at once
    const auto w0 = Clock::now();
    output->submit(model.output_fields(), model.step() * cfg.dt);
    fields_written_at = model.step();
    output_s += seconds_since(w0);
  };
  io::CheckpointState last_state;  // of the latest checkpoint (rank 0)
  auto write_checkpoint = [&]() {  // collective and synchronous: gathers the state, rank 0 writes it
    const auto w0 = Clock::now();
    take(true);  // the records up to this step travel with the checkpoint
    model.gather_state(last_state);
    if (rank == 0) {
      last_state.series_names.clear();
      last_state.series.assign(column_count(theta), {});
      for (std::size_t c = 0; c < column_count(theta); ++c) {
        last_state.series_names.push_back(kColumns[c].name);
        for (const auto& r : records) last_state.series[c].push_back(column_value(r, kColumns[c]));
      }
      write_checkpoint_file(out("checkpoint.h5"), last_state, dycore_trajectory_fingerprint(cfg), hdf5);
    }
    output_s += seconds_since(w0);
  };

  // The stepping loop: steps are submitted ahead of execution (a bounded window); records, field
  // output and checkpoints at chunk boundaries. A SIGINT/SIGTERM stops the run at a step boundary
  // (with several ranks: the step every rank agrees on) with a final checkpoint.
  const SteppingLoop loop(cfg.steps, {cfg.diagnostics_interval, fields ? cfg.fields_interval : 0,
                                      checkpoints ? cfg.checkpoint_interval : 0});
  const auto t0 = Clock::now();
  long diagnosed_at = -1;
  auto diagnose = [&] {  // collective; returns at once
    model.submit_diagnostics();
    diagnosed_at = model.step();
  };
  if (first_step == 0) {  // a resumed run has these records of its first state already
    diagnose();
    if (fields && cfg.fields_interval > 0) write_fields();
  }
  // The per-step Courant check (read a few steps late, like the solves): a Courant sum past
  // time.max_courant, or a value that is not finite, on any rank's tiles stops every rank.
  const auto courant_exceeded_here = [&] { return !(model.courant_here() <= cfg.max_courant); };
  auto courant_abort = [&](long step) {  // collective: every rank checked the same step
    const double c = model.courant_everywhere(step);
    courant_exceeded = true;
    if (!aborted.empty()) return;
    char why[200];
    if (std::isfinite(c))
      std::snprintf(why, sizeof why,
                    "unstable at step %ld: Courant number %.3g above time.max_courant = %.3g (reduce time.dt)",
                    step, c, cfg.max_courant);
    else
      std::snprintf(why, sizeof why,
                    "unstable at step %ld: the velocity holds values that are not finite (reduce time.dt)", step);
    aborted = why;
  };
  SteppingHooks hooks;
  hooks.step = [&] { return model.step(); };
  hooks.submit_step = [&] { model.submit_steps(1); };
  // Every step's solve is read a few steps after it ran (on every rank alike: no agreement needed). A
  // flow that holds a NaN or an infinity leaves a residual that is not finite: the run stops there,
  // rather than at the next diagnostics record.
  hooks.keep_going = [&] {
    const auto& solves = model.step_solves();
    if (aborted.empty() && !solves.empty() && !std::isfinite(solves.back().residual)) {
      char why[200];
      std::snprintf(why, sizeof why,
                    "unstable at step %ld: the flow holds values that are not finite (the pressure solve's "
                    "residual is %g; reduce time.dt)",
                    solves.back().step, solves.back().residual);
      aborted = why;
    }
    return aborted.empty();
  };
  hooks.unstable_here = courant_exceeded_here;
  hooks.checked_step = [&] { return model.courant_checked_step(); };  // the agreement names it
  hooks.at_chunk_end = [&](int stopped) {
    if (model.step() % cfg.diagnostics_interval == 0 || model.step() == cfg.steps) diagnose();
    if (fields && cfg.fields_interval > 0 && model.step() % cfg.fields_interval == 0) write_fields();
    if (checkpoints && cfg.checkpoint_interval > 0 && model.step() % cfg.checkpoint_interval == 0 && !stopped &&
        model.step() < cfg.steps)
      write_checkpoint();
    take(false);
  };
  const AgreedStop stop = loop.run(hooks, rank, rt.size());
  const int stopped = stop.signal;
  if (stop.unstable) courant_abort(stop.checked_step);
  // The last steps' checks, read now (collective: the ranks agree on each).
  while (!stop.unstable && model.check_next_courant())
    if (agree_on_stop(courant_exceeded_here(), rank, rt.size()).unstable) {
      courant_abort(model.courant_checked_step());
      break;
    }
  // A run that stops early ends with a record of its last state.
  if (!aborted.empty() && diagnosed_at != model.step()) diagnose();
  if (fields && fields_written_at != model.step()) write_fields();
  rt.wait_all();
  model.finish_solve_checks();
  const long steps_run = model.step() - first_step;
  const double stepping = seconds_since(t0) - output_s;
  if (stopped && rank == 0)
    std::printf("taskdycore: stopped by signal %d after step %ld; writing a checkpoint\n", stopped, model.step());
  take(true);
  // The final checkpoint (not of a run that blew up); its gathered velocity serves below.
  const bool checkpointed = checkpoints && aborted.empty();
  if (checkpointed) write_checkpoint();
  if (output) output->finish();
  if (csv && std::fclose(csv) != 0) fail_run("cannot write " + out("diagnostics.csv") + ": " + std::strerror(errno));
  if (rank == 0 && !out_dir.empty()) {
    std::vector<std::string> names;
    std::vector<std::vector<double>> columns(column_count(theta));
    std::vector<std::pair<std::string, std::string>> attributes{{"title", "taskdycore dynamical-core diagnostics"},
                                                                {"case", cfg.name}};
    for (std::size_t c = 0; c < column_count(theta); ++c) {
      names.push_back(kColumns[c].name);
      for (const auto& r : records) columns[c].push_back(column_value(r, kColumns[c]));
      if (c) attributes.emplace_back(kColumns[c].name, kColumns[c].meaning);
    }
    std::lock_guard<std::mutex> lock(hdf5);
    or_fail_run([&] { io::write_time_series(out("diagnostics.h5"), names, columns, attributes); });
  }
  // The bubble's mirror symmetries need whole fields: once, from the final state, gathered.
  std::vector<double> v[3];
  const FlowDiagnostics final_state = theta ? model.diagnose(&v) : FlowDiagnostics{};
  std::vector<double> theta_final;  // the density current's front is measured on it
  if (cfg.initial == InitialState::DensityCurrent || stratified) model.gather_theta(theta_final);
  if (!theta && checkpointed && rank == 0)
    for (int q = 0; q < 3; ++q) v[q] = std::move(last_state.fields[q].second);  // u, v, w come first
  else if (!theta && !checkpointed)
    model.gather(v);
  const double wall = seconds_since(t0);
  nlohmann::json j;
  if (stopped) j["interrupted_by_signal"] = stopped;  // every rank exits with 128 + signal
  if (rank != 0) return j;

  nlohmann::json steps = nlohmann::json::array(), time = steps, ke = steps, ens = steps, div = steps, its = steps;
  double max_div = 0, ke_growth = 0;  // the largest rise of KE between records, relative to the earlier
  bool converged = true, finite = true;
  for (std::size_t n = 0; n < records.size(); ++n) {
    const auto& r = records[n];
    finite =
        finite && std::isfinite(r.kinetic_energy) && std::isfinite(r.max_divergence) && std::isfinite(r.max_courant);
    steps.push_back(r.step);
    time.push_back(r.time);
    ke.push_back(r.kinetic_energy);
    ens.push_back(r.enstrophy);
    div.push_back(r.max_divergence);
    if (n > 0) {
      its.push_back(r.solver_iterations);
      max_div = std::max(max_div, r.max_divergence);
      converged = converged && r.solver_converged;
      const double before = records[n - 1].kinetic_energy;
      if (before > 0) ke_growth = std::max(ke_growth, (r.kinetic_energy - before) / before);
    }
  }
  // Every step's solve was checked (not only the recorded ones): list those that did not converge.
  nlohmann::json unconverged = nlohmann::json::array();
  for (const StepSolve& s : model.step_solves())
    if (!s.converged) unconverged.push_back(s.step);
  converged = converged && unconverged.empty();
  if (!finite) {  // a maximum over NaN says nothing: the checks below then fail, as they must
    max_div = std::numeric_limits<double>::quiet_NaN();
    ke_growth = max_div;
  }
  const double ms = 1e3 * stepping / std::max(1L, steps_run);
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
  j["steps_this_run"] = steps_run;
  if (!restart_path.empty()) j["restarted_from"] = {{"file", restart_path}, {"step", first_step}};
  if (!aborted.empty()) j["aborted"] = aborted;
  j["ms_per_step"] = ms;
  if (model.steady_from_step() >= 0)  // without start-up and output (DycoreModel::steady_ms_per_step)
    j["steady"] = {{"ms_per_step", model.steady_ms_per_step()}, {"from_step", model.steady_from_step()}};
  j["mcells_per_s"] = cfg.grid.cells() / (ms * 1e-3) / 1e6;
  j["wall_seconds"] = wall;
  j["output_seconds"] = output_s;
  j["solver"] = {{"method", to_string(cfg.solver.method)},
                 {"max_iter_per_step", cfg.solver_budget},
                 {"divergence_tolerance", cfg.divergence_tolerance},
                 {"iterations", its},
                 {"converged_every_step", converged},
                 {"steps_checked", model.step_solves().size()},
                 {"unconverged_steps", unconverged}};
  // Anelastic: the constraint is D(rho v) = 0, which the records' D v do not measure; the final
  // state's max |D(rho v) / rho| stands for it (every step's solve met the tolerance on it).
  const double div_of_v = max_div;
  if (!rho.empty()) max_div = mass_divergence_max(v, rho, cfg.grid);
  j["validation"] = {{"finite", finite},
                     {"max_divergence", max_div},
                     {"divergence_below_tolerance", max_div <= cfg.divergence_tolerance},
                     {"kinetic_energy", {{"step", steps}, {"time", time}, {"value", ke}}},
                     {"enstrophy", {{"step", steps}, {"time", time}, {"value", ens}}},
                     {"max_divergence_series", div},
                     // "Never grows" up to round-off: the energies are compensated sums, accurate to
                     // ~1e-16; a rise beyond kKineticEnergyRoundOff is a real gain of energy.
                     {"kinetic_energy_max_relative_rise", ke_growth},
                     {"kinetic_energy_never_grows", ke_growth <= kKineticEnergyRoundOff}};
  // -dE/dt by centred differences of the records; for Re = 1600 the published DNS peak is about
  // 0.0127 near t = 9 (the Taylor-Green benchmark of the high-order CFD workshops).
  nlohmann::json rate = nlohmann::json::array(), rate_time = rate;
  double peak = 0, peak_time = 0;
  for (std::size_t n = 1; n + 1 < records.size(); ++n) {
    const double e =
        -(records[n + 1].kinetic_energy - records[n - 1].kinetic_energy) / (records[n + 1].time - records[n - 1].time);
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
  j["diffusivity"] = cfg.diffusivity;
  nlohmann::json courant = nlohmann::json::array(), l1 = courant, l2 = courant, linf = courant;
  for (const auto& r : records) {
    courant.push_back(r.max_courant);
    l1.push_back(r.vorticity_l1);
    l2.push_back(r.vorticity_l2);
    linf.push_back(r.vorticity_max);
  }
  j["validation"]["max_courant"] = courant;
  // Every step's Courant number was checked, not only the recorded ones.
  j["validation"]["courant_within_limit"] = !courant_exceeded;
  j["validation"]["courant_limit"] = cfg.max_courant;
  j["validation"]["vorticity_magnitude"] = {{"l1", l1}, {"l2", l2}, {"max", linf}};
  if (theta) {
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
      if (records[0].theta_mean != 0.0)
        worst_drift = std::max(worst_drift, std::fabs(r.theta_mean - records[0].theta_mean) / records[0].theta_mean);
      budget = std::max(budget, std::fabs(r.kinetic_energy + r.potential_energy - records[0].kinetic_energy -
                                          records[0].potential_energy));
      ke_max = std::max(ke_max, r.kinetic_energy);
    }
    const auto& b = model.startup_solve();
    j["buoyancy"] = {{"gravity", cfg.gravity},
                     {"theta0", cfg.theta0},
                     {"balance_solve", {{"iterations", b.iterations}, {"converged", b.converged}}}};
    if (cfg.initial == InitialState::ThermalBubble) {
      j["buoyancy"]["amplitude"] = cfg.bubble.amplitude;
      j["buoyancy"]["radius"] = cfg.bubble.radius;
      j["buoyancy"]["centre"] = {cfg.bubble.x, cfg.bubble.y, cfg.bubble.z};
    }
    const EnvironmentSettings& e = cfg.environment;
    const char* profile = e.profile == EnvironmentProfile::ConstantN ? "constant_n"
                          : e.profile == EnvironmentProfile::Table   ? "table"
                                                                     : "neutral";
    j["environment"] = {{"profile", profile},
                        {"reference", e.reference_is_environment ? "environment" : "isentropic"},
                        {"brunt_vaisala", e.brunt_vaisala},
                        {"dtheta_dz_bottom", environment_dtheta_dz(e, cfg.theta0, cfg.gravity, 0.5 * cfg.grid.dz())},
                        {"wind", {e.wind_u, e.wind_v}},
                        {"coriolis", e.coriolis},
                        {"geostrophic_wind", {e.geostrophic_u, e.geostrophic_v}},
                        {"absorber", {{"depth", e.absorber_depth}, {"timescale", e.absorber_timescale}}},
                        {"diffusivity", cfg.diffusivity}};
    if (cfg.initial == InitialState::GravityWave)  // what tools/igw_linear.py needs beside fields.h5
      j["gravity_wave"] = {{"reference", "Skamarock and Klemp (1994), Mon. Wea. Rev. 122, 2623-2630"},
                           {"amplitude", cfg.wave.amplitude},
                           {"half_width", cfg.wave.half_width},
                           {"x", cfg.wave.x},
                           {"lx", cfg.grid.lx},
                           {"lz", cfg.grid.lz},
                           {"time", model.step() * cfg.dt}};
    if (cfg.initial == InitialState::Environment && e.coriolis != 0.0 && !v[0].empty()) {
      // An inertial oscillation: the mean wind turns at f about the geostrophic wind. Its phase
      // (unwrapped towards f t) gives the period 2 pi t / phase.
      double u = 0, w = 0;
      for (std::size_t c = 0; c < v[0].size(); ++c) {
        u += v[0][c] / double(v[0].size());
        w += v[1][c] / double(v[0].size());
      }
      const double t = model.step() * cfg.dt, du = u - e.geostrophic_u, dv = w - e.geostrophic_v;
      const double u0 = e.wind_u - e.geostrophic_u, v0 = e.wind_v - e.geostrophic_v;
      double phase = std::atan2(u0 * (-dv) + v0 * du, u0 * du + v0 * dv);  // clockwise angle turned
      phase += 2 * M_PI * std::round((e.coriolis * t - phase) / (2 * M_PI));
      j["validation"]["inertial_oscillation"] = {{"time", t},
                                                 {"mean_wind", {u, w}},
                                                 {"phase_rad", phase},
                                                 {"theory_phase_rad", e.coriolis * t},
                                                 {"period_s", phase != 0 ? 2 * M_PI * t / phase : 0.0},
                                                 {"theory_period_s", 2 * M_PI / std::fabs(e.coriolis)},
                                                 {"speed_change", std::hypot(du, dv) / std::hypot(u0, v0) - 1}};
    }
    if (cfg.initial == InitialState::DensityCurrent) {
      const CurrentFront front = density_current_front(theta_final, cfg.grid, cfg.current.x);
      j["density_current"] = {{"reference", "Straka et al. (1993), Int. J. Numer. Methods Fluids 17, 1-22"},
                              {"reference_front_position_m", kStrakaFrontM},
                              {"reference_theta_min_K", kStrakaThetaMinK},
                              {"time", model.step() * cfg.dt}};
      j["validation"]["front_position_m"] = front.right_m;
      j["validation"]["front_position_left_m"] = front.left_m;
      j["validation"]["theta_min_K"] = front.theta_min_K;
    }
    j["validation"]["rise_height"] = {{"time", time}, {"centroid_z", z}, {"theta_max", tmax}};
    j["validation"]["theta_mean"] = tmean;
    j["validation"]["theta_relative_change_max"] = worst_drift;
    // KE - (g / theta_0) <theta' z>: the energy of a neutral environment (the bubble's, the density
    // current's); a stratified one keeps stratified_energy instead.
    j["validation"]["total_energy"] = {{"time", time}, {"value", total}, {"potential", pe}};
    j["validation"]["energy_budget_error"] = ke_max > 0 ? budget / ke_max : 0.0;  // max |E - E0| / max KE
    if (stratified) {
      const double end = stratified_energy(cfg.environment, cfg.grid, cfg.theta0, cfg.gravity, v, theta_final, rho);
      if (std::isfinite(energy_start) && std::isfinite(end))
        j["validation"]["stratified_energy"] = {
            {"formula", "(1/N) sum w_k (|v - V|^2 + (g / theta_0(z_k)) / (dtheta_e/dz)_k theta'^2) / 2, w_k = "
                        "rho_0(z_k) / rho_0(0) (anelastic) or 1, V the geostrophic wind (Coriolis) or the environment's"},
            {"start", energy_start},
            {"end", end},
            {"relative_change", energy_start != 0.0 ? (end - energy_start) / energy_start : 0.0}};
    }
    j["validation"]["symmetry"] = {{"step", final_state.step},
                                   {"theta_max_relative_asymmetry", final_state.theta_asymmetry},
                                   {"w_max_relative_asymmetry", final_state.w_asymmetry}};
  }
  if (!rho.empty()) j["validation"]["max_divergence_of_v"] = div_of_v;
  if (cfg.initial == InitialState::TaylorGreenModified) {
    const auto& b = model.startup_solve();
    j["initial_projection"] = {{"iterations", b.iterations}, {"converged", b.converged}};
  }
  j["velocity_checksum"] = checksum_hex(v[0]) + checksum_hex(v[1]) + checksum_hex(v[2]);
  j["field_records"] = field_checksums;
  nlohmann::json files = {{"diagnostics", "diagnostics.h5"}, {"diagnostics_csv", "diagnostics.csv"}};
  if (fields) files["fields"] = {{"file", "fields.h5"}, {"xdmf", "fields.xmf"}, {"records", field_checksums.size()}};
  if (checkpointed) files["checkpoint"] = {{"file", "checkpoint.h5"}, {"step", model.step()}};
  if (!out_dir.empty()) j["output"] = files;
  return j;
}

}  // namespace tdc
