// Configuration of a dynamical-core case (case.kind = "dycore"): incompressible (Boussinesq) flow
// integrated by EULAG's NFT scheme (graph/nft_step.hpp): Taylor-Green, or a warm bubble rising in a
// neutrally stratified atmosphere (theta' advected, buoyancy g theta' / theta_0 on w). Validated like the other kinds: a bad key
// or value is a ConfigError naming it (exit 2, nothing written).
#pragma once
#include <string>
#include <vector>

#include "../../codelets/mpdata/mpdata_formulae.hpp"
#include "../../graph/elliptic_solver.hpp"
#include "../../graph/runtime/grid.hpp"
#include "environment.hpp"

namespace tdc {

// TaylorGreen: u = V sin x cos y cos z, v = -V cos x sin y cos z, w = 0, with its analytic pressure.
// TaylorGreenModified: paper 000 eq. (3), u = V sin x cos y cos z, v = V cos x sin y cos z,
// w = V sin x cos y, not divergence-free: projected by a pressure solve before the first step.
// DensityCurrent: Straka et al. (1993)'s cold bubble, theta' = A (cos(pi L) + 1) / 2 / Pi(z) for L < 1,
// L^2 = ((x - x_c) / r_x)^2 + ((z - z_c) / r_z)^2, A the temperature perturbation and Pi(z) = 1 - g z /
// (c_p theta_0) the Exner function of the neutral reference state.
// GravityWave: Skamarock & Klemp (1994)'s inertia-gravity waves, theta' = A sin(pi z / lz) /
// (1 + ((x - x_c) / a)^2) in the environment's wind. Environment: the environment itself (its wind,
// theta' = 0), for an inertial oscillation when the wind is not geostrophic.
enum class InitialState { TaylorGreen, TaylorGreenModified, ThermalBubble, GravityWave, Environment, DensityCurrent };

// A warm bubble at rest: theta' = amplitude cos^2(pi r / (2 radius)) inside the sphere r < radius.
struct BubbleSettings {
  double amplitude = 0.5;              // K
  double radius = 250.0;               // m
  double x = 1000, y = 1000, z = 350;  // centre, m
};

struct WaveSettings {
  double amplitude = 0.01;     // K
  double half_width = 5000.0;  // a, m
  double x = 100000.0;         // x_c, m
};

struct CurrentSettings {
  double amplitude = -15.0;                     // K, of temperature
  double x = 25600.0, z = 3000.0;               // centre, m
  double radius_x = 4000.0, radius_z = 2000.0;  // m
};

struct DycoreConfig {
  std::string name = "taylor_green";
  InitialState initial = InitialState::TaylorGreen;
  ZBoundary z_boundary = ZBoundary::Periodic;  // periodic, or rigid free-slip lids
  Grid grid{64, 64, 64, 6.283185307179586, 6.283185307179586, 6.283185307179586};
  int tiles_x = 1, tiles_y = 1;
  double dt = 0.02;
  int steps = 100;
  double velocity = 1.0;     // Taylor-Green amplitude V0 (the bubble starts at rest)
  double viscosity = 0.0;    // nu (0: inviscid); Re = V0 L / nu with L = lx / (2 pi)
  double diffusivity = 0.0;  // kappa of theta' (0: none; the thermal bubble only), m^2 s^-1
  double gravity = 9.81;     // g, m s^-2 (buoyancy g theta' / theta_0)
  double theta0 = 300.0;     // theta_0, K, of the neutrally stratified reference state
  BubbleSettings bubble;
  WaveSettings wave;
  CurrentSettings current;
  EnvironmentSettings environment;     // theta_e(z), wind, Coriolis, absorber (neutral at rest by default)
  double max_courant = 1.0;            // the run stops (exit 3) when the Courant sum exceeds this
  mpdata::Options mpdata;              // momentum advection (iord, non-oscillatory option)
  KrylovSettings solver;               // tol_abs is set from divergence_tolerance
  double divergence_tolerance = 1e-6;  // bound on max |D v| after each step (solver: ||r|| <= 2 tol / dt)
  int solver_budget = 100;             // iterations submitted per step
  // The solver's first guess: p^n (EULAG's), or 2 p^n - p^(n-1). Measured on the H100 (line preconditioner):
  // extrapolation saves nothing for Taylor-Green at 256^3 (73 vs 75 iterations) and costs the bubble
  // iterations, so p^n is the default.
  bool extrapolate_pressure = false;
  int diagnostics_interval = 10;  // steps between kinetic energy / divergence records
  bool write_fields = true;       // fields.h5 (+ .xmf): u, v, w, p (and theta') at the end
  int fields_interval = 0;        // and every this many steps (0: the final state only)
  bool write_checkpoint = true;   // checkpoint.h5 at the end (and on SIGINT/SIGTERM), for --restart
  int checkpoint_interval = 0;    // and every this many steps (0: at the end only)
  std::string scheduler = "auto";
  bool cpu_tasks_with_gpu = false;
  bool tile_placement = true;  // runtime.placement = "tiles"
};

// Whether the case carries theta' (every initial state but Taylor-Green's).
inline bool carries_theta(const DycoreConfig& c) {
  return c.initial != InitialState::TaylorGreen && c.initial != InitialState::TaylorGreenModified;
}

DycoreConfig load_dycore_config(const std::string& path, const std::vector<std::string>& overrides);
DycoreConfig parse_dycore_config(const std::string& toml_text, const std::vector<std::string>& overrides);

// The settings a resumed run must share with its checkpoint ("key" -> value as text): the case, the
// grid, the physics, dt and the numerics. Not time.steps, tiles, ranks, scheduler, output or the
// solver's iteration cap (none of which changes a converged trajectory).
std::vector<std::pair<std::string, std::string>> dycore_trajectory_fingerprint(const DycoreConfig& c);

}  // namespace tdc
