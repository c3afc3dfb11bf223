#include "dycore_config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <fstream>
#include <sstream>

#include "../../codelets/mpdata/mpdata_pipeline.hpp"
#include "../../codelets/solver_scalars/solver_scalars_kernel.hpp"
#include "../../codelets/spectral_precon/spectral_precon_kernel.hpp"
#include "../../graph/nft_step.hpp"
#include "../../graph/collocated_laplacian.hpp"
#include "../run/case_keys.hpp"

namespace tdc {
namespace {

using namespace config_detail;

DycoreConfig read(toml::value& root, const std::vector<std::string>& overrides) {
  apply_overrides(root, overrides);
  Reader r(root);
  DycoreConfig c;
  c.name = read_case_name(r, "dycore", c.name);
  const std::string initial = r.choice(
      "case.initial", "taylor_green",
      {"taylor_green", "taylor_green_modified", "thermal_bubble", "gravity_wave", "environment", "density_current"});
  c.initial = initial == "thermal_bubble"          ? InitialState::ThermalBubble
              : initial == "taylor_green_modified" ? InitialState::TaylorGreenModified
              : initial == "gravity_wave"          ? InitialState::GravityWave
              : initial == "environment"           ? InitialState::Environment
              : initial == "density_current"       ? InitialState::DensityCurrent
                                                   : InitialState::TaylorGreen;
  const bool bubble = c.initial == InitialState::ThermalBubble;
  const bool wave = c.initial == InitialState::GravityWave;
  const bool theta = carries_theta(c);
  const std::string not_taylor_green = "by case.initial = \"" + initial + "\" (Taylor-Green carries no theta')";
  c.velocity = r.number("case.velocity", c.velocity);
  c.viscosity = r.number("physics.viscosity", c.viscosity);
  c.diffusivity = r.number("physics.diffusivity", c.diffusivity);
  c.gravity = r.number("physics.gravity", c.gravity);
  c.theta0 = r.number("physics.theta0", c.theta0);
  if (bubble) {
    c.bubble.amplitude = r.number("bubble.amplitude", c.bubble.amplitude);
    c.bubble.radius = r.number("bubble.radius", c.bubble.radius);
    c.bubble.x = r.number("bubble.x", c.bubble.x);
    c.bubble.y = r.number("bubble.y", c.bubble.y);
    c.bubble.z = r.number("bubble.z", c.bubble.z);
  } else {
    for (const char* key : {"bubble.amplitude", "bubble.radius", "bubble.x", "bubble.y", "bubble.z"})
      r.reject_if_set(key, "by case.initial = \"" + initial + "\" (only by \"thermal_bubble\")");
  }
  if (wave) {
    c.wave.amplitude = r.number("wave.amplitude", c.wave.amplitude);
    c.wave.half_width = r.number("wave.half_width", c.wave.half_width);
    c.wave.x = r.number("wave.x", c.wave.x);
  } else {
    for (const char* key : {"wave.amplitude", "wave.half_width", "wave.x"})
      r.reject_if_set(key, "by case.initial = \"" + initial + "\" (only by \"gravity_wave\")");
  }
  const bool current = c.initial == InitialState::DensityCurrent;
  const std::vector<const char*> current_keys = {"current.amplitude", "current.x", "current.z", "current.radius_x",
                                                 "current.radius_z"};
  if (current) {
    c.current.amplitude = r.number("current.amplitude", c.current.amplitude);
    c.current.x = r.number("current.x", c.current.x);
    c.current.z = r.number("current.z", c.current.z);
    c.current.radius_x = r.number("current.radius_x", c.current.radius_x);
    c.current.radius_z = r.number("current.radius_z", c.current.radius_z);
  } else {
    for (const char* key : current_keys)
      r.reject_if_set(key, "by case.initial = \"" + initial + "\" (only by \"density_current\")");
  }
  EnvironmentSettings& e = c.environment;
  const std::vector<const char*> environment_keys = {
      "environment.profile", "environment.brunt_vaisala", "environment.z",
      "environment.theta",   "environment.wind_u",        "environment.wind_v",
      "physics.coriolis",    "physics.geostrophic_u",     "physics.geostrophic_v",
      "absorber.depth",      "absorber.timescale",        "physics.equations",
      "physics.reference"};
  if (theta) {
    const std::string profile = r.choice("environment.profile", "neutral", {"neutral", "constant_n", "table"});
    e.profile = profile == "constant_n" ? EnvironmentProfile::ConstantN
                : profile == "table"    ? EnvironmentProfile::Table
                                        : EnvironmentProfile::Neutral;
    if (e.profile == EnvironmentProfile::ConstantN)
      e.brunt_vaisala = r.number("environment.brunt_vaisala", 0.01);
    else
      r.reject_if_set("environment.brunt_vaisala",
                      "by environment.profile = \"" + profile + "\" (only by \"constant_n\")");
    if (e.profile == EnvironmentProfile::Table) {
      e.table_z = r.number_list("environment.z");
      e.table_theta = r.number_list("environment.theta");
    } else {
      for (const char* key : {"environment.z", "environment.theta"})
        r.reject_if_set(key, "by environment.profile = \"" + profile + "\" (only by \"table\")");
    }
    e.wind_u = r.number("environment.wind_u", e.wind_u);
    e.wind_v = r.number("environment.wind_v", e.wind_v);
    e.coriolis = r.number("physics.coriolis", e.coriolis);
    e.geostrophic_u = r.number("physics.geostrophic_u", e.geostrophic_u);
    e.geostrophic_v = r.number("physics.geostrophic_v", e.geostrophic_v);
    e.absorber_depth = r.number("absorber.depth", e.absorber_depth);
    e.absorber_timescale = r.number("absorber.timescale", e.absorber_timescale);
    e.anelastic = r.choice("physics.equations", "boussinesq", {"boussinesq", "anelastic"}) == "anelastic";
    e.reference_is_environment =
        r.choice("physics.reference", "isentropic", {"isentropic", "environment"}) == "environment";
  } else {
    for (const char* key : environment_keys) r.reject_if_set(key, not_taylor_green);
  }
  c.max_courant = r.number("time.max_courant", c.max_courant);
  read_grid(r, c.grid);
  c.z_boundary = read_z_boundary(r, theta ? "rigid" : "periodic");
  read_tiles(r, c.tiles_x, c.tiles_y);
  c.dt = r.number("time.dt", c.dt);
  c.steps = int(r.integer("time.steps", c.steps));
  c.mpdata.iord = int(r.integer("mpdata.iord", 2));
  c.mpdata.fct = r.boolean("mpdata.fct", true);
  c.mpdata.iga = r.boolean("mpdata.iga", true);  // signed fields: the infinite-gauge form
  c.mpdata.zb = c.z_boundary;
  read_mpdata_kernel(r, c.mpdata);
  // Boussinesq on a Cartesian grid: G = 1; anelastic: G = rho_0 (DycoreModel fills the array so)
  c.mpdata.unit_density = !c.environment.anelastic;
  KrylovSettings& k = c.solver;
  const std::string method = r.choice("solver.method", "gcr", {"pcg", "gcr", "direct"});
  k.method = method == "pcg" ? KrylovMethod::Pcg : method == "gcr" ? KrylovMethod::Gcr : KrylovMethod::Direct;
  if (k.method == KrylovMethod::Pcg)
    k.fused = r.boolean("solver.fused", true);
  else
    r.reject_if_set("solver.fused", "by solver.method = \"" + method + "\" (only PCG has a fused form)");
  k.restart = int(r.integer("solver.restart", 3));
  c.divergence_tolerance = r.number("solver.divergence_tolerance", c.divergence_tolerance);
  c.solver_budget = int(r.integer("solver.max_iter", c.solver_budget));
  c.extrapolate_pressure = r.choice("solver.first_guess", "previous", {"previous", "extrapolated"}) == "extrapolated";
  const std::string precon = r.choice("solver.preconditioner", "line", {"line", "multigrid", "spectral"});
  k.preconditioner = precon == "multigrid"  ? Preconditioner::Multigrid
                     : precon == "spectral" ? Preconditioner::Spectral
                                            : Preconditioner::Line;
  if (k.preconditioner == Preconditioner::Multigrid) {
    k.multigrid.levels = int(r.integer("solver.multigrid_levels", 0));
    k.multigrid.coarse_sweeps = int(r.integer("solver.multigrid_coarse_sweeps", k.multigrid.coarse_sweeps));
    k.multigrid.omega = r.number("solver.multigrid_omega", k.multigrid.omega);
    k.multigrid.one_task = r.boolean("solver.multigrid_one_task", k.multigrid.one_task);
    k.multigrid.whole_cells = r.integer("solver.multigrid_whole_cells", k.multigrid.whole_cells);
  } else {
    k.multigrid.levels = 0;
    for (const char* key : {"solver.multigrid_levels", "solver.multigrid_coarse_sweeps", "solver.multigrid_omega",
                            "solver.multigrid_one_task", "solver.multigrid_whole_cells"})
      r.reject_if_set(key, "by solver.preconditioner = \"" + precon + "\" (only by \"multigrid\")");
  }
  c.diagnostics_interval = int(r.integer("diagnostics.interval", c.diagnostics_interval));
  c.write_fields = r.boolean("output.fields", c.write_fields);
  c.fields_interval = int(r.integer("output.fields_interval", c.fields_interval));
  c.write_checkpoint = r.boolean("output.checkpoint", c.write_checkpoint);
  c.checkpoint_interval = int(r.integer("output.checkpoint_interval", c.checkpoint_interval));
  read_runtime(r, c.scheduler, c.cpu_tasks_with_gpu, c.tile_placement);
  r.reject_unknown();

  require(c.grid.nx > 0 && c.grid.nx % 2 == 0, "grid.nx", "must be positive and even");
  require(c.grid.ny > 0 && c.grid.ny % 2 == 0, "grid.ny", "must be positive and even");
  require(c.grid.nz >= 4 && c.grid.nz % 2 == 0, "grid.nz", "must be even and at least 4");
  require(c.grid.lx > 0, "grid.lx", "must be positive");
  require(c.grid.ly > 0, "grid.ly", "must be positive");
  require(c.grid.lz > 0, "grid.lz", "must be positive");
  require_memory(c.grid, 24, "velocity, theta', pressure, advective velocities and the solver's vectors");
  require_tiles_divide(c.grid.nx, c.grid.ny, c.tiles_x, c.tiles_y);
  const int halo = nft_halo(c.mpdata, c.viscosity > 0.0 || c.diffusivity > 0.0, 0);  // the least it takes
  require(c.grid.nx / c.tiles_x >= halo && c.grid.ny / c.tiles_y >= halo, "tiles.x",
          "tiles narrower than the halo (" + std::to_string(halo) + ")");
  require(c.tiles_x * c.tiles_y <= kMaxCombineTiles, "tiles.x", "too many tiles for one solver");
  require(c.dt > 0, "time.dt", "must be positive");
  require(c.steps > 0, "time.steps", "must be positive");
  require(c.velocity > 0, "case.velocity", "must be positive");
  require(c.gravity >= 0, "physics.gravity", "must not be negative");
  require(c.theta0 > 0, "physics.theta0", "must be positive (K)");
  require(c.max_courant > 0 && c.max_courant <= 1.0, "time.max_courant", "must be in (0, 1]");
  if (bubble) {
    require(c.z_boundary == ZBoundary::Rigid, "grid.z_boundary", "the thermal bubble rises between rigid lids");
    require(c.bubble.radius > 0, "bubble.radius", "must be positive");
    require(c.bubble.x - c.bubble.radius >= 0 && c.bubble.x + c.bubble.radius <= c.grid.lx, "bubble.x",
            "the bubble must lie inside the domain in x");
    require(c.bubble.y - c.bubble.radius >= 0 && c.bubble.y + c.bubble.radius <= c.grid.ly, "bubble.y",
            "the bubble must lie inside the domain in y");
    require(c.bubble.z - c.bubble.radius >= 0 && c.bubble.z + c.bubble.radius <= c.grid.lz, "bubble.z",
            "the bubble must lie inside the domain in z");
  }
  require(c.viscosity >= 0, "physics.viscosity", "must be zero (inviscid) or positive");
  require(c.diffusivity >= 0, "physics.diffusivity", "must be zero (none) or positive");
  require(c.diffusivity == 0 || theta, "physics.diffusivity", "diffuses theta', which Taylor-Green does not carry");
  if (wave) {
    require(c.wave.half_width > 0, "wave.half_width", "must be positive");
    require(c.wave.x >= 0 && c.wave.x <= c.grid.lx, "wave.x", "must lie inside the domain in x");
    require(c.z_boundary == ZBoundary::Rigid, "grid.z_boundary", "the gravity wave lives between rigid lids");
  }
  if (current) {
    require(c.current.radius_x > 0, "current.radius_x", "must be positive");
    require(c.current.radius_z > 0, "current.radius_z", "must be positive");
    require(c.current.x >= 0 && c.current.x <= c.grid.lx, "current.x", "must lie inside the domain in x");
    require(c.current.z >= 0 && c.current.z <= c.grid.lz, "current.z", "must lie inside the domain in z");
    require(c.z_boundary == ZBoundary::Rigid, "grid.z_boundary", "the density current flows between rigid lids");
  }
  if (e.reference_is_environment)  // theta_e is lowest at the ground (it does not decrease with height)
    require(environment_theta(e, c.theta0, c.gravity, 0.0) > 0, "environment.theta",
            "extrapolated to the ground must stay positive: it is the reference theta_0(z) there");
  if (e.anelastic) {
    require(c.z_boundary == ZBoundary::Rigid, "grid.z_boundary", "the anelastic reference state needs rigid lids");
    require(reference_exner(e, c.grid.lz, c.theta0, c.gravity) > 0, "grid.lz",
            "reaches above the reference state's top (its Exner function falls to 0 below the lid)");
  }
  if (e.stratified()) {
    require(c.z_boundary == ZBoundary::Rigid, "grid.z_boundary", "a stratified environment needs rigid lids");
    if (e.profile == EnvironmentProfile::ConstantN)
      require(e.brunt_vaisala > 0, "environment.brunt_vaisala", "must be positive (1/s)");
    if (e.profile == EnvironmentProfile::Table) {
      require(e.table_z.size() >= 2, "environment.z", "needs at least two levels");
      require(e.table_theta.size() == e.table_z.size(), "environment.theta",
              "needs one value per level of environment.z (" + std::to_string(e.table_z.size()) + ")");
      for (std::size_t n = 0; n < e.table_z.size(); ++n) {
        require(n == 0 || e.table_z[n] > e.table_z[n - 1], "environment.z", "must increase strictly");
        require(e.table_theta[n] > 0, "environment.theta", "must be positive (K)");
        // alpha = 1 / (1 + (dt/2)^2 b S) must stay positive: a stable or neutral environment only
        require(n == 0 || e.table_theta[n] >= e.table_theta[n - 1], "environment.theta",
                "must not decrease with height (a statically unstable environment is not supported)");
      }
    }
  }
  require(e.coriolis >= -1e-3 && e.coriolis <= 1e-3, "physics.coriolis", "must be within +-1e-3 1/s (f-plane)");
  if (e.absorbs() || e.absorber_timescale != 0) {
    require(e.absorber_depth > 0 && e.absorber_depth <= c.grid.lz, "absorber.depth", "must be in (0, grid.lz]");
    require(e.absorber_timescale >= c.dt, "absorber.timescale",
            "must be at least time.dt (the explicit damping is stable for nu dt <= 1)");
  }
  for (const auto& [key, coefficient] : {std::pair<const char*, double>{"physics.viscosity", c.viscosity},
                                         std::pair<const char*, double>{"physics.diffusivity", c.diffusivity}}) {
    // explicit diffusion is stable for nu dt (1/dx^2 + 1/dy^2 + 1/dz^2) <= 1/2
    const double dx = c.grid.lx / c.grid.nx, dy = c.grid.ly / c.grid.ny, dz = c.grid.lz / c.grid.nz;
    const double number = coefficient * c.dt * (1 / (dx * dx) + 1 / (dy * dy) + 1 / (dz * dz));
    require(number <= 0.5, key,
            "explicit diffusion is unstable: " + std::string(key) +
                " dt (1/dx^2 + 1/dy^2 + 1/dz^2) = " + std::to_string(number) + " > 0.5");
  }
  const double courant =
      theta ? c.dt * (std::fabs(e.wind_u) / (c.grid.lx / c.grid.nx) + std::fabs(e.wind_v) / (c.grid.ly / c.grid.ny))
            : c.velocity * c.dt *
                  (1.0 / (c.grid.lx / c.grid.nx) + 1.0 / (c.grid.ly / c.grid.ny) +
                   (c.initial == InitialState::TaylorGreenModified ? 1.0 / (c.grid.lz / c.grid.nz) : 0.0));
  require(courant <= 1.0, "time.dt",
          "the initial flow's Courant sum is " + std::to_string(courant) + " > 1 (MPDATA is unstable)");
  require(c.mpdata.iord >= 1 && c.mpdata.iord <= 4, "mpdata.iord", "must be between 1 and 4");
  require(k.restart >= 1 && k.restart <= kMaxGcrDirections, "solver.restart",
          "must be between 1 and " + std::to_string(kMaxGcrDirections));
  require(c.divergence_tolerance > 0, "solver.divergence_tolerance", "must be positive");
  require(c.solver_budget >= 1, "solver.max_iter", "must be positive");
  require(k.method != KrylovMethod::Direct || k.preconditioner == Preconditioner::Spectral, "solver.method",
          "\"direct\" applies the exact spectral inverse: it needs solver.preconditioner = \"spectral\"");
  require(k.method != KrylovMethod::Direct || !c.extrapolate_pressure, "solver.first_guess",
          "\"extrapolated\" is for the iterative solves: \"direct\" applies the exact inverse to the right-hand side "
          "and reads no first guess");
  if (k.preconditioner == Preconditioner::Multigrid) {
    require(k.method == KrylovMethod::Pcg, "solver.preconditioner", "\"multigrid\" needs solver.method = \"pcg\"");
    require(k.multigrid.coarse_sweeps >= 1, "solver.multigrid_coarse_sweeps", "must be positive");
    require(k.multigrid.whole_cells >= 0, "solver.multigrid_whole_cells",
            "must be 0 (every level on the tiles) or the most cells of the first level run whole on one device");
    require(k.multigrid.omega > 0 && k.multigrid.omega < 1, "solver.multigrid_omega",
            "must be in (0, 1): at 1 Jacobi does not damp the 2-cell checkerboards");
    const int most = multigrid_max_levels(c.grid);
    require(k.multigrid.levels >= 0 && k.multigrid.levels <= most, "solver.multigrid_levels",
            "must be 0 (automatic) or 1.." + std::to_string(most) +
                " for this grid (each coarsening needs dimensions that are multiples of 4)");
    if (k.multigrid.levels == 0) k.multigrid.levels = multigrid_auto_levels(c.grid);
    const std::string fit = " tiles do not fit " + std::to_string(k.multigrid.levels) +
                            " multigrid levels: tile widths must halve to multiples of 4 on every level but the "
                            "coarsest (use fewer tiles or set solver.multigrid_levels lower)";
    require(multigrid_tiles_fit(c.grid.nx, c.tiles_x, k.multigrid.levels), "tiles.x", std::to_string(c.tiles_x) + fit);
    require(multigrid_tiles_fit(c.grid.ny, c.tiles_y, k.multigrid.levels), "tiles.y", std::to_string(c.tiles_y) + fit);
  }
  if (k.preconditioner == Preconditioner::Spectral) {
    // The operator the solver inverts: the stratified and anelastic ones vary with height, which the
    // spectral inverse takes (its vertical pass solves each mode's cycles directly); the grid's sizes
    // and the vertical rule are what it can refuse.
    const CollocatedLaplacian op = collocated_laplacian(
        c.grid, c.z_boundary,
        environment_vertical_weights(e, c.grid.nz, c.grid.lz / c.grid.nz, c.dt, c.theta0, c.gravity),
        environment_density(e, c.grid.nz, c.grid.lz / c.grid.nz, c.theta0, c.gravity));
    const std::string why = spectral_unsupported(c.grid.nx, c.grid.ny, c.grid.nz, op.couplings, op.level_coefficients);
    require(why.empty(), "solver.preconditioner", "\"spectral\" cannot invert this grid's operator: " + why);
  }
  require(c.diagnostics_interval >= 1, "diagnostics.interval", "must be positive");
  require(c.fields_interval >= 0, "output.fields_interval", "must be 0 (final state only) or positive");
  require(c.checkpoint_interval >= 0, "output.checkpoint_interval", "must be 0 (at the end only) or positive");
  require(c.checkpoint_interval == 0 || c.write_checkpoint, "output.checkpoint_interval",
          "needs output.checkpoint = true");
  // D v^(n+1) = -(dt/2) r exactly (D(G p) = L p), so max |D v^(n+1)| <= tol is max |r| <= 2 tol / dt:
  // the solve stops on the max norm of its residual, the very bound it must meet (the 2-norm over
  // all cells would over-solve by a factor that grows like sqrt(cells)).
  k.tol_rel = 0.0;
  k.tol_abs = 0.0;
  // Anelastic: D(rho v^(n+1)) = -(dt/2) r, so max |D(rho v) / rho| <= tol needs max |r| <= 2 tol rho_min / dt.
  const std::vector<double> rho = environment_density(e, c.grid.nz, c.grid.lz / c.grid.nz, c.theta0, c.gravity);
  k.tol_max = 2.0 * c.divergence_tolerance * (rho.empty() ? 1.0 : rho.back()) / c.dt;
  k.max_iter = c.solver_budget;
  return c;
}

}  // namespace

DycoreConfig load_dycore_config(const std::string& path, const std::vector<std::string>& overrides) {
  return config_detail::load_file(path, overrides, read);
}

DycoreConfig parse_dycore_config(const std::string& text, const std::vector<std::string>& overrides) {
  return config_detail::load_text(text, overrides, read);
}

std::vector<std::pair<std::string, std::string>> dycore_trajectory_fingerprint(const DycoreConfig& c) {
  const auto num = config_detail::exact_text;
  const char* initial = c.initial == InitialState::ThermalBubble         ? "thermal_bubble"
                        : c.initial == InitialState::TaylorGreenModified ? "taylor_green_modified"
                        : c.initial == InitialState::GravityWave         ? "gravity_wave"
                        : c.initial == InitialState::Environment         ? "environment"
                        : c.initial == InitialState::DensityCurrent      ? "density_current"
                                                                         : "taylor_green";
  std::vector<std::pair<std::string, std::string>> f{
      {"case.kind", "dycore"},
      {"case.name", c.name},
      {"case.initial", initial},
      {"case.velocity", num(c.velocity)},
      {"grid.nx", std::to_string(c.grid.nx)},
      {"grid.ny", std::to_string(c.grid.ny)},
      {"grid.nz", std::to_string(c.grid.nz)},
      {"grid.lx", num(c.grid.lx)},
      {"grid.ly", num(c.grid.ly)},
      {"grid.lz", num(c.grid.lz)},
      {"grid.z_boundary", c.z_boundary == ZBoundary::Rigid ? "rigid" : "periodic"},
      {"time.dt", num(c.dt)},
      {"physics.viscosity", num(c.viscosity)},
      {"mpdata.iord", std::to_string(c.mpdata.iord)},
      {"mpdata.fct", c.mpdata.fct ? "true" : "false"},
      {"mpdata.iga", c.mpdata.iga ? "true" : "false"},
      {"solver.method", to_string(c.solver.method)},
      {"solver.fused", c.solver.fused ? "true" : "false"},
      {"solver.restart", std::to_string(c.solver.restart)},
      {"solver.divergence_tolerance", num(c.divergence_tolerance)},
      {"solver.first_guess", c.extrapolate_pressure ? "extrapolated" : "previous"}};
  if (c.solver.preconditioner == Preconditioner::Multigrid) {  // absent for the line preconditioner (older checkpoints)
    f.push_back({"solver.preconditioner", "multigrid"});
    f.push_back({"solver.multigrid_levels", std::to_string(c.solver.multigrid.levels)});
    f.push_back({"solver.multigrid_coarse_sweeps", std::to_string(c.solver.multigrid.coarse_sweeps)});
    f.push_back({"solver.multigrid_omega", num(c.solver.multigrid.omega)});
  }
  if (c.solver.preconditioner == Preconditioner::Spectral) f.push_back({"solver.preconditioner", "spectral"});
  const EnvironmentSettings& e = c.environment;
  const bool environment_set =
      e.stratified() || e.absorbs() || e.anelastic || e.coriolis != 0 || e.wind_u != 0 || e.wind_v != 0;
  // (absent from a thermal bubble's in a neutral environment at rest: older checkpoints)
  if (c.initial == InitialState::DensityCurrent)
    f.insert(f.end(), {{"current.amplitude", num(c.current.amplitude)},
                       {"current.x", num(c.current.x)},
                       {"current.z", num(c.current.z)},
                       {"current.radius_x", num(c.current.radius_x)},
                       {"current.radius_z", num(c.current.radius_z)}});
  if (c.initial == InitialState::GravityWave || c.initial == InitialState::Environment ||
      c.initial == InitialState::DensityCurrent || (c.initial == InitialState::ThermalBubble && environment_set)) {
    const char* profile = e.profile == EnvironmentProfile::ConstantN ? "constant_n"
                          : e.profile == EnvironmentProfile::Table   ? "table"
                                                                     : "neutral";
    std::string table;
    for (std::size_t n = 0; n < e.table_z.size(); ++n) table += num(e.table_z[n]) + ":" + num(e.table_theta[n]) + " ";
    if (e.anelastic) f.push_back({"physics.equations", "anelastic"});  // absent: Boussinesq (older checkpoints)
    if (e.reference_is_environment) f.push_back({"physics.reference", "environment"});  // absent: isentropic
    const std::pair<std::string, std::string> more[] = {{"environment.profile", profile},
                                                        {"environment.brunt_vaisala", num(e.brunt_vaisala)},
                                                        {"environment.table", table},
                                                        {"environment.wind_u", num(e.wind_u)},
                                                        {"environment.wind_v", num(e.wind_v)},
                                                        {"physics.coriolis", num(e.coriolis)},
                                                        {"physics.geostrophic_u", num(e.geostrophic_u)},
                                                        {"physics.geostrophic_v", num(e.geostrophic_v)},
                                                        {"absorber.depth", num(e.absorber_depth)},
                                                        {"absorber.timescale", num(e.absorber_timescale)},
                                                        {"wave.amplitude", num(c.wave.amplitude)},
                                                        {"wave.half_width", num(c.wave.half_width)},
                                                        {"wave.x", num(c.wave.x)}};
    f.insert(f.end(), std::begin(more), std::end(more));
    if (c.initial != InitialState::ThermalBubble)
      f.insert(f.end(), {{"physics.gravity", num(c.gravity)},
                         {"physics.theta0", num(c.theta0)},
                         {"physics.diffusivity", num(c.diffusivity)}});
  }
  if (c.initial == InitialState::ThermalBubble) {
    const std::pair<std::string, std::string> bubble[] = {{"physics.gravity", num(c.gravity)},
                                                          {"physics.theta0", num(c.theta0)},
                                                          {"bubble.amplitude", num(c.bubble.amplitude)},
                                                          {"bubble.radius", num(c.bubble.radius)},
                                                          {"bubble.x", num(c.bubble.x)},
                                                          {"bubble.y", num(c.bubble.y)},
                                                          {"bubble.z", num(c.bubble.z)}};
    f.insert(f.end(), std::begin(bubble), std::end(bubble));
    if (c.diffusivity > 0) f.push_back({"physics.diffusivity", num(c.diffusivity)});  // absent: 0 (older checkpoints)
  }
  return f;
}

}  // namespace tdc
