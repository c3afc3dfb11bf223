#include "nft_step.hpp"

#include <algorithm>
#include <stdexcept>

#include "../codelets/absorber/absorber.hpp"
#include "../codelets/advector/advector.hpp"
#include "../codelets/anelastic/anelastic.hpp"
#include "../codelets/buoyancy/buoyancy.hpp"
#include "../codelets/common/codelet.hpp"
#include "../codelets/coriolis/coriolis.hpp"
#include "../codelets/fetch_ahead/fetch_ahead.hpp"
#include "../codelets/pressure_gradient/pressure_gradient.hpp"
#include "../codelets/viscous_diffusion/viscous_diffusion.hpp"
#include "../codelets/snapshot_copy/snapshot_copy.hpp"
#include "../codelets/stratification/stratification.hpp"
#include "../codelets/vector_update/vector_update.hpp"
#include "collocated_laplacian.hpp"
#include "halo_exchange.hpp"

namespace tdc {

namespace {

int computed_rings_halo(const mpdata::Options& mpdata, bool diffusion) {
  return std::max(2, mpdata::halo_needed(mpdata) + 1 + (diffusion ? 1 : 0));
}
int exchanged_halo(const mpdata::Options& mpdata) { return std::max(2, mpdata::halo_needed(mpdata)); }

}  // namespace

int nft_halo(const mpdata::Options& mpdata, bool diffusion, int narrowest_tile) {
  const int computed = computed_rings_halo(mpdata, diffusion);
  return narrowest_tile >= computed ? computed : exchanged_halo(mpdata);
}

NftStepGraph::NftStepGraph(const Decomposition& d, int rank, const Grid& g, const NftSettings& s)
    : d_(d), s_(s), mpdata_(d, s.mpdata, false) {
  rings_computed_ = d.layout().halo >= computed_rings_halo(s.mpdata, s.viscosity > 0.0 || s.diffusivity > 0.0);
  if (d.layout().halo < exchanged_halo(s.mpdata)) throw std::invalid_argument("NFT step: the tiles' halo is too narrow");
  // Stratified: the implicit buoyancy weights the vertical pressure gradient by alpha_k.
  // Anelastic: the operator of D(rho v) = 0.
  std::vector<double> alpha, rho;
  auto profile = [&](int vec, std::vector<double>& v) {
    v.assign(s.env.profiles.begin() + std::ptrdiff_t(vec) * g.nz,
             s.env.profiles.begin() + std::ptrdiff_t(vec + 1) * g.nz);
  };
  if (s.env.stratified) profile(kEnvAlpha, alpha);
  if (s.env.anelastic) profile(kEnvDensity, rho);
  const CollocatedLaplacian op = collocated_laplacian(g, s.zb, alpha, rho);
  const std::vector<OperatorLevel> hierarchy =
      s.solver.preconditioner == Preconditioner::Multigrid
          ? collocated_laplacian_levels(g, s.zb, s.solver.multigrid.levels, alpha, rho)
          : std::vector<OperatorLevel>{};
  if (s.env.active()) {
    if (s.env.profiles.size() != std::size_t(kEnvVectors) * g.nz)
      throw std::invalid_argument("NFT step: environment profiles do not match nz");
    env_ = std::make_unique<RankZeroVector>(rank, s.env.profiles);
  }
  solver_ = std::make_unique<EllipticSolver>(d, rank, op.couplings, op.level_coefficients, s.solver, hierarchy);
  cx_ = s.dt / g.dx();
  cy_ = s.dt / g.dy();
  cz_ = s.dt / g.dz();
  gx_ = 0.5 / g.dx();
  gy_ = 0.5 / g.dy();
  gz_ = 0.5 / g.dz();
}

int NftStepGraph::tasks_per_tile() const {
  // advector, copies, gradients, divergence, MPDATA and the exchanges, plus the solver's iterations.
  const NftEnvironment& e = s_.env;
  const int environment = (e.coriolis != 0.0 ? 1 : 0) + (e.absorber ? 4 : 0) + (e.stratified ? 2 : 0) +
                          (e.anelastic ? 1 : 0) + (e.stratified || e.absorber ? 4 : 0) +
                          (e.stratified ? 4 : 0);  // tasks and exchanges
  return 46 + (fetch_ahead_enabled() ? 4 : 0) /* strips fetched ahead */ + environment +
         (s_.extrapolate_pressure ? 3 : 0) + (s_.diffusivity > 0.0 ? 6 : 0) +
         solver_->tasks_per_iteration() * s_.solver_budget;
}

void NftStepGraph::submit_step(const NftFields& f, long n) {
  const int now = int(n % 2), next = 1 - now;
  const TileLayout& L = d_.layout();
  // The rings computed (see nft_halo): the forcing's outputs as far as MPDATA reads them, the updates
  // after MPDATA as far as their inputs allow (v^ and p arrive L.halo wide, a gradient costs one).
  // Tiles too narrow for that halo exchange v~ and v^(n+1) instead.
  const int reach = mpdata::halo_needed(s_.mpdata);
  const int forcing_ring = rings_computed_ ? reach : 0, update_ring = rings_computed_ ? L.halo - 1 : 0;
  const AdvectorArgs adv{L, cx_, cy_, cz_, s_.zb, reach};
  const CentredArgs half_gradient{L, 0.5 * s_.dt * gx_, 0.5 * s_.dt * gy_, 0.5 * s_.dt * gz_, s_.zb, forcing_ring};
  const CentredArgs correction{L, 0.5 * s_.dt * gx_, 0.5 * s_.dt * gy_, 0.5 * s_.dt * gz_, s_.zb, update_ring};
  const CentredArgs rhs_divergence{L, -2.0 / s_.dt * gx_, -2.0 / s_.dt * gy_, -2.0 / s_.dt * gz_, s_.zb};
  const BuoyancyArgs half_buoyancy{L, 0.5 * s_.dt * s_.buoyancy, forcing_ring};
  const BuoyancyArgs implicit_half_buoyancy{L, half_buoyancy.factor, update_ring};
  const bool theta = f.theta[0] != nullptr;
  const NftEnvironment& env = s_.env;
  for (int t = 0; t < d_.tiles(); ++t) {
    const starpu_data_handle_t vel[6] = {f.vel[0][now]->handle(t),  f.vel[1][now]->handle(t),
                                         f.vel[2][now]->handle(t),  f.vel[0][next]->handle(t),
                                         f.vel[1][next]->handle(t), f.vel[2][next]->handle(t)};
    const starpu_data_handle_t c[3] = {f.c[0]->handle(t), f.c[1]->handle(t), f.c[2]->handle(t)};
    insert_advector(adv, vel, c, kPrioHalo);
    if (env.anelastic) insert_mass_courant(MassCourantArgs{L, reach}, env_->handle(), c, kPrioHalo);  // the mass flux
  }
  // No exchange of c: the advector computed its ghost ring from v's (advector_box).
  // The forced velocity v~ goes to `forced`, beside v^n (which stays, as the next step's v^(n-1)):
  // the explicit viscous term from v^n, the explicit half of the pressure forcing, on the ghost ring
  // MPDATA reads too (no exchange).
  for (int t = 0; t < d_.tiles(); ++t) {
    const starpu_data_handle_t vn[3] = {f.vel[0][now]->handle(t), f.vel[1][now]->handle(t), f.vel[2][now]->handle(t)};
    const starpu_data_handle_t v[3] = {f.forced[0]->handle(t), f.forced[1]->handle(t), f.forced[2]->handle(t)};
    if (s_.viscosity > 0.0) {  // v~ = v^n + dt nu Lap(v^n) (the term adds in place), then the gradient in place
      const DiffusionArgs diff{L, s_.viscosity * s_.dt * 4.0 * gx_ * gx_, s_.viscosity * s_.dt * 4.0 * gy_ * gy_,
                               s_.viscosity * s_.dt * 4.0 * gz_ * gz_, s_.zb, forcing_ring};
      for (int q = 0; q < 3; ++q) insert_snapshot_copy(vn[q], v[q], kPrioHalo);
      insert_viscous_diffusion(diff, vn, v, kPrioHalo);
      insert_pressure_gradient(half_gradient, f.p->handle(t), v, kPrioHalo);
    } else {
      insert_pressure_gradient_from(half_gradient, f.p->handle(t), vn, v, kPrioHalo);
    }
    if (theta && env.stratified)  // beta_k: theta_0's variation with height (exactly 1 for a constant one)
      insert_height_buoyancy(ScaledArgs{L, half_buoyancy.factor, forcing_ring}, env_->handle(), f.theta[now]->handle(t),
                             v[2], kPrioHalo);
    else if (theta)
      insert_buoyancy(half_buoyancy, f.theta[now]->handle(t), v[2], kPrioHalo);
    if (env.coriolis != 0.0) {
      const starpu_data_handle_t old[2] = {f.vel[0][next]->handle(t), f.vel[1][next]->handle(t)};  // v^(n-1)
      insert_coriolis(CoriolisArgs{L, env.coriolis * s_.dt, env.ug, env.vg, forcing_ring}, vn, old, v, kPrioHalo);
    }
    if (env.absorber) {
      const double target[3] = {env.wind_u, env.wind_v, 0.0};
      for (int q = 0; q < 3; ++q)
        insert_absorber(AbsorberArgs{L, s_.dt, target[q], forcing_ring}, env_->handle(), vn[q], v[q], kPrioHalo);
    }
  }
  const bool theta_forced = theta && (env.stratified || env.absorber);  // theta'~ != theta'^n
  // Without computed rings, the fields MPDATA advects need theirs exchanged: v~, and theta' where it
  // changed below.
  std::vector<HaloField> advected{{f.forced[0], f.vel_strips[0]}, {f.forced[1], f.vel_strips[1]},
                                  {f.forced[2], f.vel_strips[2]}};
  if (theta && (s_.diffusivity > 0.0 || theta_forced)) advected.push_back({f.theta[now], f.theta_strips});
  if (theta && s_.diffusivity > 0.0) {  // after the buoyancy half above has read theta'^n
    const DiffusionArgs diff{L, s_.diffusivity * s_.dt * 4.0 * gx_ * gx_, s_.diffusivity * s_.dt * 4.0 * gy_ * gy_,
                             s_.diffusivity * s_.dt * 4.0 * gz_ * gz_, s_.zb, forcing_ring};
    for (int t = 0; t < d_.tiles(); ++t) {
      insert_snapshot_copy(f.theta[now]->handle(t), f.theta_old->handle(t), kPrioBody);
      insert_scalar_diffusion(diff, f.theta_old->handle(t), f.theta[now]->handle(t), kPrioHalo);
    }
  }
  if (theta_forced) {  // the explicit half of -w dtheta_e/dz (from w^n), and the absorber, in place
    for (int t = 0; t < d_.tiles(); ++t) {
      if (env.stratified)
        insert_environment_source(ScaledArgs{L, -0.5 * s_.dt, forcing_ring}, env_->handle(),
                                  f.vel[2][now]->handle(t), f.theta[now]->handle(t), kPrioHalo);
      if (env.absorber)
        insert_absorber_in_place(AbsorberArgs{L, s_.dt, 0.0, forcing_ring}, env_->handle(), f.theta[now]->handle(t),
                                 kPrioHalo);
    }
  }
  if (!rings_computed_) submit_halo_exchange(d_, advected);
  // MPDATA's outputs share one unpack task a tile (their strips written by the MPDATA tasks).
  std::vector<HaloField> advected_out;
  for (int q = 0; q < 3; ++q) {  // step n advects psi[n % 2] into psi[(n + 1) % 2]: v~ into v^ (over v^(n-1))
    TiledField* psi[2];
    psi[now] = f.forced[q];
    psi[next] = f.vel[q][next];
    const MpdataFields mf{{psi[0], psi[1]}, f.c[0], f.c[1], f.c[2], f.g, nullptr, nullptr, nullptr, f.vel_strips[q]};
    mpdata_.submit_advance(mf, n, 1.0);
    advected_out.push_back({f.vel[q][next], f.vel_strips[q]});
    submit_strip_fetch_ahead(d_, advected_out.back());  // they travel while the next field advects
  }
  if (theta) {
    const MpdataFields mf{
        {f.theta[0], f.theta[1]}, f.c[0], f.c[1], f.c[2], f.g, nullptr, nullptr, nullptr, f.theta_strips};
    mpdata_.submit_advance(mf, n, 1.0);
    advected_out.push_back({f.theta[next], f.theta_strips});
  }
  submit_halo_unpack(d_, advected_out);
  if (theta) {  // theta' is not forced: theta'^(n+1) is final, and the implicit buoyancy half with it
    for (int t = 0; t < d_.tiles(); ++t)
      if (env.stratified)
        insert_implicit_buoyancy(ScaledArgs{L, half_buoyancy.factor, update_ring}, env_->handle(),
                                 f.theta[next]->handle(t), f.vel[2][next]->handle(t), kPrioBody);
      else
        insert_buoyancy(implicit_half_buoyancy, f.theta[next]->handle(t), f.vel[2][next]->handle(t), kPrioBody);
  }
  // The pressure problem and the correction.
  for (int t = 0; t < d_.tiles(); ++t) {
    const starpu_data_handle_t v[3] = {f.vel[0][next]->handle(t), f.vel[1][next]->handle(t), f.vel[2][next]->handle(t)};
    if (env.anelastic)
      insert_mass_divergence(rhs_divergence, env_->handle(), v, f.rhs->handle(t), kPrioBody);
    else
      insert_divergence(rhs_divergence, v, f.rhs->handle(t), kPrioBody);
  }
  if (s_.extrapolate_pressure) {  // p <- 2 p^n - p^(n-1), p^(n-1) <- p^n (the solver never skips these)
    VectorUpdateArgs guess{L, 1 << 20, -1, -1, -1.0, 2.0};
    for (int t = 0; t < d_.tiles(); ++t) {
      insert_snapshot_copy(f.p->handle(t), f.p_tmp->handle(t), kPrioBody);
      insert_vector_update(guess, solver_->state_handle(), f.p_old->handle(t), f.p->handle(t), kPrioBody);
      insert_snapshot_copy(f.p_tmp->handle(t), f.p_old->handle(t), kPrioBody);
    }
  }
  // p's ghost ring is current (exchanged after the last solve, or rebuilt on a restart) unless the
  // extrapolation above rewrote the interior.
  solver_->submit_solve(*f.p, *f.rhs, s_.solver_budget, !s_.extrapolate_pressure);
  submit_halo_exchange(d_, *f.p, *f.p_strips);
  solver_->submit_check(*f.p, *f.rhs);
  for (int t = 0; t < d_.tiles(); ++t) {
    const starpu_data_handle_t v[3] = {f.vel[0][next]->handle(t), f.vel[1][next]->handle(t), f.vel[2][next]->handle(t)};
    if (env.stratified)
      insert_stratified_gradient(correction, env_->handle(), f.p->handle(t), v, kPrioBody);
    else
      insert_pressure_gradient(correction, f.p->handle(t), v, kPrioBody);
  }
  std::vector<HaloField> updated{
      {f.vel[0][next], f.vel_strips[0]}, {f.vel[1][next], f.vel_strips[1]}, {f.vel[2][next], f.vel_strips[2]}};
  if (theta && env.stratified) {  // theta'^(n+1) = theta^ - dt/2 S w^(n+1): the implicit half, now w is known
    for (int t = 0; t < d_.tiles(); ++t)
      insert_environment_source(ScaledArgs{L, -0.5 * s_.dt, update_ring}, env_->handle(), f.vel[2][next]->handle(t),
                                f.theta[next]->handle(t), kPrioBody);
    updated.push_back({f.theta[next], f.theta_strips});
  }
  if (!rings_computed_) submit_halo_exchange(d_, updated);  // else their rings were computed above
}

SolveResult NftStepGraph::solve_from_zero(const NftFields& f) {
  // From p = 0 this may take more than one budget: restart from the iterate, up to 10 budgets.
  SolveResult r = solver_->solve(*f.p, *f.rhs);
  for (int round = 1; round < 10 && !r.converged; ++round) {
    const int done = r.iterations;
    r = solver_->solve(*f.p, *f.rhs);
    r.iterations += done;
  }
  submit_halo_exchange(d_, *f.p, *f.p_strips);
  return r;
}

SolveResult NftStepGraph::project_velocity(const NftFields& f) {
  const TileLayout& L = d_.layout();
  const CentredArgs rhs_divergence{L, -gx_, -gy_, -gz_, s_.zb};  // A phi = -L phi = -D v
  const CentredArgs gradient{L, gx_, gy_, gz_, s_.zb};
  for (int t = 0; t < d_.tiles(); ++t) {
    const starpu_data_handle_t v[3] = {f.vel[0][0]->handle(t), f.vel[1][0]->handle(t), f.vel[2][0]->handle(t)};
    insert_divergence(rhs_divergence, v, f.rhs->handle(t), kPrioBody);
  }
  // Here the divergence left is r itself (not dt/2 r as in a step): the step's bound, undivided.
  const double step_tolerance = solver_->max_norm_tolerance();
  solver_->set_max_norm_tolerance(0.5 * s_.dt * step_tolerance);
  const SolveResult r = solve_from_zero(f);
  solver_->set_max_norm_tolerance(step_tolerance);
  for (int t = 0; t < d_.tiles(); ++t) {
    const starpu_data_handle_t v[3] = {f.vel[0][0]->handle(t), f.vel[1][0]->handle(t), f.vel[2][0]->handle(t)};
    insert_pressure_gradient(gradient, f.p->handle(t), v, kPrioBody);
  }
  submit_halo_exchange(d_,
                       {{f.vel[0][0], f.vel_strips[0]}, {f.vel[1][0], f.vel_strips[1]}, {f.vel[2][0], f.vel_strips[2]}});
  return r;
}

SolveResult NftStepGraph::balance_rest_pressure(const NftFields& f) {
  const TileLayout& L = d_.layout();
  const BuoyancyArgs buoyancy{L, s_.buoyancy};
  const CentredArgs rhs_divergence{L, -gx_, -gy_, -gz_, s_.zb};  // A p = -L p = -D(b theta' z)
  // forced = (0, 0, b theta') (it starts at 0), then its divergence; stratified, alpha b theta' against
  // the weighted operator (so that a theta' balanced by dp/dz alone is balanced exactly).
  for (int t = 0; t < d_.tiles(); ++t) {
    if (s_.env.stratified)
      insert_implicit_buoyancy(ScaledArgs{L, s_.buoyancy}, env_->handle(), f.theta[0]->handle(t),
                               f.forced[2]->handle(t), kPrioBody);
    else
      insert_buoyancy(buoyancy, f.theta[0]->handle(t), f.forced[2]->handle(t), kPrioBody);
    const starpu_data_handle_t v[3] = {f.forced[0]->handle(t), f.forced[1]->handle(t), f.forced[2]->handle(t)};
    if (s_.env.anelastic)
      insert_mass_divergence(rhs_divergence, env_->handle(), v, f.rhs->handle(t), kPrioBody);
    else
      insert_divergence(rhs_divergence, v, f.rhs->handle(t), kPrioBody);
  }
  return solve_from_zero(f);
}

}  // namespace tdc
