#include "dycore_model.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "../../codelets/common/double_double.hpp"
#include "../../codelets/mpdata/mpdata_pipeline.hpp"
#include "../../graph/field_tasks.hpp"
#include "../../graph/halo_exchange.hpp"
#include "../run/stepping.hpp"

namespace tdc {
namespace {

int halo_of(const DycoreConfig& c) {
  return nft_halo(c.mpdata, c.viscosity > 0.0 || c.diffusivity > 0.0,
                  std::min(c.grid.nx / c.tiles_x, c.grid.ny / c.tiles_y));
}

NftSettings settings_of(const DycoreConfig& c) {
  NftSettings s;
  s.dt = c.dt;
  s.mpdata = c.mpdata;
  s.solver = c.solver;
  s.solver_budget = c.solver_budget;
  s.viscosity = c.viscosity;
  s.diffusivity = c.diffusivity;
  s.extrapolate_pressure = c.extrapolate_pressure;
  s.zb = c.z_boundary;
  s.buoyancy = carries_theta(c) ? c.gravity / c.theta0 : 0.0;
  const EnvironmentSettings& e = c.environment;
  s.env.stratified = e.stratified();
  s.env.absorber = e.absorbs();
  s.env.anelastic = e.anelastic;
  s.env.coriolis = e.coriolis;
  s.env.ug = e.geostrophic_u;
  s.env.vg = e.geostrophic_v;
  s.env.wind_u = e.wind_u;
  s.env.wind_v = e.wind_v;
  if (s.env.active()) s.env.profiles = environment_profiles(e, c.grid.nz, c.grid.dz(), c.dt, c.theta0, c.gravity);
  return s;
}

}  // namespace

std::vector<std::string> DycoreModel::checkpoint_fields(const DycoreConfig& cfg) {
  std::vector<std::string> n{"u", "v", "w", "u_previous", "v_previous", "w_previous", "p"};
  if (carries_theta(cfg)) n.push_back("theta");
  if (cfg.extrapolate_pressure) n.push_back("p_previous");
  return n;
}

// The model's fields in checkpoint_fields() order (the step's buffers), with their halo strips.
std::vector<std::pair<TiledField*, TileStrips*>> DycoreModel::checkpointed() const {
  const int now = int(step_ % 2);
  std::vector<std::pair<TiledField*, TileStrips*>> f;
  for (int q = 0; q < 3; ++q) f.emplace_back(f_.vel[q][now], f_.vel_strips[q]);
  for (int q = 0; q < 3; ++q) f.emplace_back(f_.vel[q][1 - now], f_.vel_strips[q]);  // v^(n-1)
  f.emplace_back(f_.p, f_.p_strips);
  if (has_theta()) f.emplace_back(f_.theta[now], f_.theta_strips);
  if (f_.p_old) f.emplace_back(f_.p_old, f_.p_strips);
  return f;
}

DycoreModel::DycoreModel(const DycoreConfig& cfg, int rank, int ranks, const io::CheckpointState* restart)
    : cfg_(cfg), rank_(rank), d_(cfg.grid, cfg.tiles_x, cfg.tiles_y, halo_of(cfg), ranks) {
  auto field = [&](const char* name) {
    owned_.push_back(std::make_unique<TiledField>(name, d_, rank));
    return owned_.back().get();
  };
  auto strips = [&] {
    strips_.push_back(std::make_unique<TileStrips>(d_, rank));
    return strips_.back().get();
  };
  const char* names[3] = {"u", "v", "w"};
  for (int q = 0; q < 3; ++q) {
    f_.vel[q][0] = field(names[q]);
    f_.vel[q][1] = field(names[q]);
    f_.forced[q] = field(names[q]);
    f_.c[q] = field("courant");
    f_.vel_strips[q] = strips();
  }
  f_.g = field("G");
  f_.p = field("p");
  f_.rhs = field("rhs");
  f_.p_strips = strips();
  if (cfg.extrapolate_pressure) {
    f_.p_old = field("p_old");
    f_.p_tmp = field("p_tmp");
  }
  const bool bubble = cfg.initial == InitialState::ThermalBubble;
  const bool modified = cfg.initial == InitialState::TaylorGreenModified;
  const bool theta = carries_theta(cfg);
  if (theta) {
    f_.theta[0] = field("theta");
    f_.theta[1] = field("theta");
    f_.theta_strips = strips();
    if (cfg.diffusivity > 0.0) f_.theta_old = field("theta");
  }
  graph_ = std::make_unique<NftStepGraph>(d_, rank, cfg.grid, settings_of(cfg));
  size_solver_budget();

  const TileLayout& L = d_.layout();
  const Grid& g = cfg.grid;
  for (int t = 0; t < d_.tiles(); ++t) {
    if (!f_.p->owned(t)) continue;
    ++local_tiles_;
    std::fill(f_.g->host(t), f_.g->host(t) + L.size(), 1.0);  // ghost ring included
    const std::vector<double> rho = environment_density(cfg.environment, L.nz, g.dz(), cfg.theta0, cfg.gravity);
    for (std::size_t k = 0; k < rho.size(); ++k)  // anelastic: G = rho_0, level by level
      std::fill(f_.g->host(t) + k * L.plane(), f_.g->host(t) + (k + 1) * L.plane(), rho[k]);
    if (restart) continue;
    if (bubble) {  // at rest (fields start at 0), theta' = A cos^2(pi r / 2R) in the sphere r < R, ghost ring included
      const BubbleSettings& b = cfg.bubble;
      for (int k = 0; k < L.nz; ++k)
        for (int j = -L.halo; j < L.ny + L.halo; ++j)
          for (int i = -L.halo; i < L.nx + L.halo; ++i) {
            const int gi = (d_.origin_x(t) + i + g.nx) % g.nx, gj = (d_.origin_y(t) + j + g.ny) % g.ny;
            const double dx = (gi + 0.5) * g.dx() - b.x, dy = (gj + 0.5) * g.dy() - b.y, dz = (k + 0.5) * g.dz() - b.z;
            const double r = std::sqrt(dx * dx + dy * dy + dz * dz) / b.radius;
            const double c = std::cos(0.5 * M_PI * r);
            f_.theta[0]->host(t)[L.at(i, j, k)] = r < 1.0 ? b.amplitude * c * c : 0.0;
          }
      continue;
    }
    if (theta) {  // the environment's wind, and the gravity wave's theta' (ghost ring included)
      const WaveSettings& w = cfg.wave;
      for (int k = 0; k < L.nz; ++k)
        for (int j = -L.halo; j < L.ny + L.halo; ++j)
          for (int i = -L.halo; i < L.nx + L.halo; ++i) {
            const std::ptrdiff_t o = L.at(i, j, k);
            f_.vel[0][0]->host(t)[o] = cfg.environment.wind_u;
            f_.vel[1][0]->host(t)[o] = cfg.environment.wind_v;
            const int gi = (d_.origin_x(t) + i + g.nx) % g.nx;
            if (cfg.initial == InitialState::DensityCurrent) {
              const CurrentSettings& c = cfg.current;
              const double lx = ((gi + 0.5) * g.dx() - c.x) / c.radius_x, lz = ((k + 0.5) * g.dz() - c.z) / c.radius_z;
              const double l = std::sqrt(lx * lx + lz * lz);
              const double exner = 1.0 - cfg.gravity * (k + 0.5) * g.dz() / (kCp * cfg.theta0);
              f_.theta[0]->host(t)[o] = l < 1.0 ? c.amplitude * 0.5 * (std::cos(M_PI * l) + 1.0) / exner : 0.0;
            }
            if (cfg.initial != InitialState::GravityWave) continue;
            const double x = (gi + 0.5) * g.dx() - w.x, z = (k + 0.5) * g.dz();
            f_.theta[0]->host(t)[o] =
                w.amplitude * std::sin(M_PI * z / g.lz) / (1.0 + (x / w.half_width) * (x / w.half_width));
          }
      continue;
    }
    // Taylor-Green: u = V sin x cos y cos z, v = -V cos x sin y cos z, w = 0 (x, y, z scaled to 2 pi),
    // at cell centres; v^(-1) = v^0, G = 1.
    for (int k = 0; k < L.nz; ++k)
      for (int j = 0; j < L.ny; ++j)
        for (int i = 0; i < L.nx; ++i) {
          const double x = 2 * M_PI * (d_.origin_x(t) + i + 0.5) / g.nx,
                       y = 2 * M_PI * (d_.origin_y(t) + j + 0.5) / g.ny, z = 2 * M_PI * (k + 0.5) / g.nz;
          const std::ptrdiff_t o = L.at(i, j, k);
          f_.vel[0][0]->host(t)[o] = cfg.velocity * std::sin(x) * std::cos(y) * std::cos(z);
          f_.vel[1][0]->host(t)[o] = (modified ? 1 : -1) * cfg.velocity * std::cos(x) * std::sin(y) * std::cos(z);
          f_.vel[2][0]->host(t)[o] = modified ? cfg.velocity * std::sin(x) * std::cos(y) : 0.0;
        }
    if (modified) continue;  // p = 0 for the projection
    // The flow's own initial pressure, so that the first step's explicit half forcing is right (with
    // p = 0 the first step loses energy that later steps give back):
    // p = V^2/16 (cos 2x + cos 2y)(cos 2z + 2), ghost ring included.
    for (int k = 0; k < L.nz; ++k)
      for (int j = -L.halo; j < L.ny + L.halo; ++j)
        for (int i = -L.halo; i < L.nx + L.halo; ++i) {
          const double x = 2 * M_PI * (d_.origin_x(t) + i + 0.5) / g.nx,
                       y = 2 * M_PI * (d_.origin_y(t) + j + 0.5) / g.ny, z = 2 * M_PI * (k + 0.5) / g.nz;
          f_.p->host(t)[L.at(i, j, k)] =
              cfg.velocity * cfg.velocity / 16 * (std::cos(2 * x) + std::cos(2 * y)) * (std::cos(2 * z) + 2);
        }
  }
  if (restart) {
    // The state of step n: v^n in vel[.][n % 2] and theta'^n in theta[n % 2] (the graph alternates
    // on that), interiors from the checkpoint, ghost rings by halo exchanges.
    step_ = first_step_ = restart->step;
    const auto names = checkpoint_fields(cfg);
    const auto into = checkpointed();
    for (std::size_t n = 0; n < names.size(); ++n) {
      load_interiors(d_, restart->field(names[n]), *into[n].first);
      submit_halo_exchange(d_, *into[n].first, *into[n].second);
    }
    for (const auto& [name, value] : restart->budgets) {
      if (name == "startup_iterations") startup_.iterations = int(value);
      if (name == "startup_converged") startup_.converged = value != 0;
    }
  }
  if (!restart) {  // ghost rings (p's too: the steps' solves start from its ring as it is)
    for (int q = 0; q < 3; ++q) submit_halo_exchange(d_, *f_.vel[q][0], *f_.vel_strips[q]);
    submit_halo_exchange(d_, *f_.p, *f_.p_strips);
  }
  if (modified && !restart) {
    startup_ = graph_->project_velocity(f_);
    // p^0 = 0 again (it held the projection's potential); the first steps' solves find the pressure.
    fill_owned_tiles(d_, *f_.p, 0.0);
  }
  if (!restart) {
    for (int q = 0; q < 3; ++q)
      submit_field_copy(d_, *f_.vel[q][0], *f_.vel[q][1], kPrioBody);  // v^(-1) = v^0 as tasks
    if (theta) startup_ = graph_->balance_rest_pressure(f_);
    if (f_.p_old)  // p^(-1) = p^0: the first guess of step 0 is p^0
      submit_field_copy(d_, *f_.p, *f_.p_old, kPrioBody);
  }
  FlowDiagnosticsArgs a;
  a.centred = CentredArgs{L, 0.5 / g.dx(), 0.5 / g.dy(), 0.5 / g.dz(), cfg.z_boundary};
  a.cx = cfg.dt / g.dx();
  a.cy = cfg.dt / g.dy();
  a.cz = cfg.dt / g.dz();
  a.dz = g.dz();
  diagnostics_ = std::make_unique<AsyncFlowDiagnostics>(d_, rank, a, graph_->solver());
  // Slots for the steps not yet read, and for the kStopLag read since whose agreement is pending.
  courant_ = std::make_unique<StepCourantCheck>(d_, rank, MaxCourantArgs{L, a.cx, a.cy, a.cz}, kBudgetLag + kStopLag);
  courant_step_ = first_step_;
  for (auto& v : solve_copy_) v = std::make_unique<RankZeroVector>(rank, graph_->solver().state_size());
  if (ranks > 1 && host_channel_available()) channel_ = std::make_unique<HostChannel>();
}

void DycoreModel::submit_diagnostics() {
  const int now = int(step_ % 2);
  const TiledField* vel[3] = {f_.vel[0][now], f_.vel[1][now], f_.vel[2][now]};
  diagnostics_->submit(vel, f_.theta[now], step_, step_ * cfg_.dt);
}

std::vector<FlowDiagnostics> DycoreModel::take_diagnostics(bool finish) {
  if (finish) diagnostics_->collect_all();
  std::vector<FlowDiagnostics> out;
  const Grid& g = cfg_.grid;
  for (const FlowRecord& rec : diagnostics_->take_collected()) {
    FlowDiagnostics r;
    r.step = rec.step;
    r.time = rec.time;
    if (rec.step > 0) {  // the state before the first step holds no solve of a step
      r.solver_iterations = rec.solve.iterations;
      r.solver_converged = rec.solve.converged;
      r.solver_residual = rec.solve.residual_history.empty() ? 0.0 : rec.solve.residual_history.back();
    }
    const FlowTotals& t = rec.totals;
    r.kinetic_energy = dd_value(t.sum[kKineticEnergy]) / g.cells();
    r.enstrophy = dd_value(t.sum[kEnstrophy]) / g.cells();
    r.vorticity_l1 = dd_value(t.sum[kVorticityL1]) / g.cells();
    r.vorticity_l2 = std::sqrt(2.0 * r.enstrophy);
    r.vorticity_max = t.max[kMaxVorticity];
    r.max_divergence = t.max[kMaxDivergence];
    r.max_courant = t.max[kMaxCourant];
    if (has_theta()) {
      const double sum = dd_value(t.sum[kThetaSum]), moment = dd_value(t.sum[kThetaZ]);
      r.theta_mean = sum / g.cells();
      r.theta_max = t.max[kMaxTheta];
      r.theta_centroid_z = moment / sum;
      r.potential_energy = -(cfg_.gravity / cfg_.theta0) * moment / g.cells();
    }
    out.push_back(r);
  }
  return out;
}

void DycoreModel::submit_steps(long count) {
  const unsigned window = unsigned(std::max(1, 2 * local_tiles_ * (graph_->tasks_per_tile() + 1)));  // + max_courant
  for (long n = 0; n < count; ++n) {
    graph_->submit_step(f_, step_);
    ++step_;
    graph_->solver().submit_state_copy(solve_copy_[step_ % (kBudgetLag + 1)]->handle(), kPrioHalo,
                                       /*to_every_rank=*/!channel_);
    const int now = int(step_ % 2);
    const TiledField* vel[3] = {f_.vel[0][now], f_.vel[1][now], f_.vel[2][now]};
    courant_->submit(vel, step_);
    wait_for_submitted(window);
    if (channel_ && step_ - (kBudgetLag - 1) > first_step_) share_solve(step_ - (kBudgetLag - 1));
    if (step_ - kBudgetLag > first_step_) {
      read_solve(step_ - kBudgetLag);
      size_solver_budget();
      check_next_courant();
    }
  }
}

bool DycoreModel::check_next_courant() {
  if (courant_step_ >= step_) return false;
  ++courant_step_;
  courant_here_ = courant_->local_max(courant_step_);
  checked_at_.emplace_back(courant_step_,
                           std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count());
  return true;
}

long DycoreModel::steady_from_step() const {
  const long steps = checked_at_.empty() ? 0 : checked_at_.back().first - first_step_;
  return steps < 8 ? -1 : first_step_ + std::max(4L, steps / 4);
}

double DycoreModel::steady_ms_per_step() const {
  const long from = steady_from_step();
  if (from < 0) return 0.0;
  for (const auto& [step, t] : checked_at_)
    if (step == from) return 1e3 * (checked_at_.back().second - t) / double(checked_at_.back().first - step);
  return 0.0;
}

void DycoreModel::share_solve(long step) {
  std::vector<double> state = rank_ == 0 ? graph_->solver().state_copy_here(solve_copy_[step % (kBudgetLag + 1)]->handle())
                                         : std::vector<double>(graph_->solver().state_size());
  shared_solves_.emplace_back(step, channel_->broadcast(std::move(state), 0));
}

void DycoreModel::read_solve(long step) {
  SolveResult r;
  if (channel_) {  // shared in step order; the last steps' only now (finish_solve_checks)
    if (shared_solves_.empty()) share_solve(step);
    if (shared_solves_.front().first != step) throw std::logic_error("dycore: solves read out of step order");
    r = graph_->solver().result_of(shared_solves_.front().second->values().data());
    shared_solves_.pop_front();
  } else {
    r = graph_->solver().read_state_copy(solve_copy_[step % (kBudgetLag + 1)]->handle());
  }
  solves_.push_back({step, r.iterations, r.iterations >= 0 && r.converged,
                     r.residual_history.empty() ? 0.0 : r.residual_history.back()});
}

void DycoreModel::finish_solve_checks() {
  const long from = solves_.empty() ? first_step_ + 1 : solves_.back().step + 1;
  for (long s = from; s <= step_; ++s) read_solve(s);
}

void DycoreModel::size_solver_budget() {
  // Iteration counts vary by half from step to step (the residual left by one solve seeds the next)
  // and grow fast while a flow starts: twice the largest recent count + 10. With multigrid the counts
  // are small and steady (6-10 at 64^3..256^3) while a skipped V-cycle still costs its kernel
  // launches: 1.25 times the count + 4. The spectral inverse is exact, so its solves take 1 iteration
  // (2 at round-off) from any start: the count + 1 (the solve submits a pass more, which tests the
  // last iteration's residual), and 4 before counts are known (a whole solver.max_iter of skipped
  // tasks cost 2.2 ms a step at 256^3; over 4 GPUs a skipped pass still costs its chain of
  // reductions, about 0.6 ms). A solve unfinished when its budget
  // ran out (-1) has outgrown it: the whole solver.max_iter until the window holds none.
  int largest = 0;
  bool outgrown = false;
  for (std::size_t n = solves_.size() > kBudgetWindow ? solves_.size() - kBudgetWindow : 0; n < solves_.size(); ++n) {
    largest = std::max(largest, solves_[n].iterations);
    outgrown = outgrown || solves_[n].iterations < 0;
  }
  const bool warming = int(solves_.size()) < kBudgetWarmup;
  const int want = outgrown                       ? cfg_.solver_budget
                   : graph_->solver().spectral()  ? std::max(largest + 1, warming ? 4 : 0)
                   : warming                      ? cfg_.solver_budget
                   : graph_->solver().multigrid() ? largest + largest / 4 + 4
                                                  : 2 * largest + 10;
  graph_->set_solver_budget(std::min(cfg_.solver_budget, want));
}

void DycoreModel::gather(std::vector<double> (&vel)[3]) {
  for (int q = 0; q < 3; ++q) gather_field(d_, *f_.vel[q][step_ % 2], rank_, vel[q]);
}

void DycoreModel::gather_state(io::CheckpointState& s) {
  const auto names = checkpoint_fields(cfg_);
  const auto from = checkpointed();
  s.fields.clear();
  for (std::size_t n = 0; n < names.size(); ++n) {
    s.fields.emplace_back(names[n], std::vector<double>{});
    gather_field(d_, *from[n].first, rank_, s.fields.back().second);
  }
  s.step = step_;
  s.time = step_ * cfg_.dt;
  s.nx = cfg_.grid.nx;
  s.ny = cfg_.grid.ny;
  s.nz = cfg_.grid.nz;
  s.budgets = {{"startup_iterations", double(startup_.iterations)},
               {"startup_converged", startup_.converged ? 1.0 : 0.0}};
}

std::vector<const TiledField*> DycoreModel::output_fields() const {
  const int now = int(step_ % 2);
  std::vector<const TiledField*> f{f_.vel[0][now], f_.vel[1][now], f_.vel[2][now], f_.p};
  if (has_theta()) f.push_back(f_.theta[now]);
  return f;
}

void DycoreModel::gather_theta(std::vector<double>& theta) { gather_field(d_, *f_.theta[step_ % 2], rank_, theta); }

std::vector<std::string> DycoreModel::field_names() const {
  std::vector<std::string> n{"u", "v", "w", "p"};
  if (has_theta()) n.push_back("theta");
  return n;
}

void DycoreModel::gather_fields(std::vector<std::vector<double>>& fields) {
  fields.resize(field_names().size());
  for (int q = 0; q < 3; ++q) gather_field(d_, *f_.vel[q][step_ % 2], rank_, fields[q]);
  gather_field(d_, *f_.p, rank_, fields[3]);
  if (has_theta()) gather_theta(fields[4]);
}

FlowDiagnostics DycoreModel::diagnose(std::vector<double> (*vel)[3]) {
  std::vector<double> own[3], th;
  std::vector<double>(&v)[3] = vel ? *vel : own;
  gather(v);
  if (has_theta()) gather_theta(th);
  const SolveResult s = graph_->solver().read_state();
  FlowDiagnostics r;
  r.step = step_;
  r.time = step_ * cfg_.dt;
  r.solver_iterations = s.iterations;
  r.solver_converged = s.converged;
  r.solver_residual = s.residual_history.empty() ? 0.0 : s.residual_history.back();
  if (rank_ != 0) return r;
  const Grid& g = cfg_.grid;
  const int nx = g.nx, ny = g.ny, nz = g.nz;
  const bool lids = cfg_.z_boundary == ZBoundary::Rigid;
  // A field's value at any (i, j, k): periodic in x and y; in z periodic, or mirrored about the lids
  // with the field's parity (w odd, the others even), as the kernels do.
  auto value = [&](const std::vector<double>& f, double parity, int i, int j, int k) {
    i = (i + nx) % nx;
    j = (j + ny) % ny;
    double sign = 1.0;
    if (k < 0 || k >= nz) {
      if (lids) {
        k = k < 0 ? -1 - k : 2 * nz - 1 - k;
        sign = parity;
      } else {
        k = (k + nz) % nz;
      }
    }
    return sign * f[(std::size_t(k) * ny + j) * nx + i];
  };
  auto at = [&](int q, int i, int j, int k) { return value(v[q], q == 2 ? -1.0 : 1.0, i, j, k); };
  const double hx = 0.5 / g.dx(), hy = 0.5 / g.dy(), hz = 0.5 / g.dz();
  DD ke, ens, l1;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const double u = at(0, i, j, k), vv = at(1, i, j, k), w = at(2, i, j, k);
        ke = dd_add(ke, 0.5 * (u * u + vv * vv + w * w));
        const double div =
            (hx * (at(0, i + 1, j, k) - at(0, i - 1, j, k)) + hy * (at(1, i, j + 1, k) - at(1, i, j - 1, k))) +
            hz * (at(2, i, j, k + 1) - at(2, i, j, k - 1));
        r.max_divergence = std::max(r.max_divergence, std::fabs(div));
        r.max_courant = std::max(r.max_courant, cfg_.dt / g.dx() * std::fabs(u) + cfg_.dt / g.dy() * std::fabs(vv) +
                                                    cfg_.dt / g.dz() * std::fabs(w));
        const double ox =
            hy * (at(2, i, j + 1, k) - at(2, i, j - 1, k)) - hz * (at(1, i, j, k + 1) - at(1, i, j, k - 1));
        const double oy =
            hz * (at(0, i, j, k + 1) - at(0, i, j, k - 1)) - hx * (at(2, i + 1, j, k) - at(2, i - 1, j, k));
        const double oz =
            hx * (at(1, i + 1, j, k) - at(1, i - 1, j, k)) - hy * (at(0, i, j + 1, k) - at(0, i, j - 1, k));
        const double omega2 = ox * ox + oy * oy + oz * oz;
        ens = dd_add(ens, 0.5 * omega2);
        l1 = dd_add(l1, std::sqrt(omega2));
        r.vorticity_max = std::max(r.vorticity_max, std::sqrt(omega2));
      }
  r.kinetic_energy = dd_value(ke) / g.cells();
  r.enstrophy = dd_value(ens) / g.cells();
  r.vorticity_l1 = dd_value(l1) / g.cells();
  r.vorticity_l2 = std::sqrt(2.0 * r.enstrophy);
  if (th.empty()) return r;
  DD sum, moment;
  double w_max = 0;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const std::size_t o = (std::size_t(k) * ny + j) * nx + i;
        const std::size_t mx = (std::size_t(k) * ny + j) * nx + (nx - 1 - i),
                          my = (std::size_t(k) * ny + (ny - 1 - j)) * nx + i;
        sum = dd_add(sum, th[o]);
        moment = dd_add(moment, th[o] * ((k + 0.5) * g.dz()));
        r.theta_max = o == 0 ? th[o] : std::max(r.theta_max, th[o]);
        w_max = std::max(w_max, std::fabs(v[2][o]));
        double a = std::max(std::fabs(th[o] - th[mx]), std::fabs(th[o] - th[my]));
        double b = std::max(std::fabs(v[2][o] - v[2][mx]), std::fabs(v[2][o] - v[2][my]));
        if (nx == ny) {
          const std::size_t md = (std::size_t(k) * ny + i) * nx + j;
          a = std::max(a, std::fabs(th[o] - th[md]));
          b = std::max(b, std::fabs(v[2][o] - v[2][md]));
        }
        r.theta_asymmetry = std::max(r.theta_asymmetry, a);
        r.w_asymmetry = std::max(r.w_asymmetry, b);
      }
  r.theta_mean = dd_value(sum) / g.cells();
  r.theta_centroid_z = dd_value(moment) / dd_value(sum);
  r.potential_energy = -(cfg_.gravity / cfg_.theta0) * dd_value(moment) / g.cells();
  if (r.theta_max > 0) r.theta_asymmetry /= r.theta_max;
  if (w_max > 0) r.w_asymmetry /= w_max;
  return r;
}

}  // namespace tdc
