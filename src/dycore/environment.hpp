// The environment of a stratified case: the environmental potential temperature theta_e(z) (neutral,
// a constant Brunt-Vaisala frequency N, or a table of levels), its wind, the f-plane Coriolis
// parameter with a geostrophic wind, and a Rayleigh absorber below the lid; and the per-level
// profiles the step's codelets read (codelets/stratification).
#pragma once
#include <string>
#include <vector>

#include "../../graph/runtime/grid.hpp"

namespace tdc {

enum class EnvironmentProfile { Neutral, ConstantN, Table };

struct EnvironmentSettings {
  EnvironmentProfile profile = EnvironmentProfile::Neutral;
  double brunt_vaisala = 0.0;                // N, 1/s (constant_n)
  std::vector<double> table_z, table_theta;  // levels, m, and theta_e there, K (table; z increasing)
  double wind_u = 0.0, wind_v = 0.0;         // the environment's wind, m/s (the initial flow, the absorber's target)
  double coriolis = 0.0;                     // f, 1/s
  double geostrophic_u = 0.0, geostrophic_v = 0.0;  // m/s
  double absorber_depth = 0.0;                      // m below the lid (0: no absorber)
  double absorber_timescale = 0.0;                  // 1 / nu at the lid, s
  bool anelastic = false;  // D(rho_0 v) = 0 with the isentropic rho_0(z) of theta_0 (else Boussinesq, rho_0 = 1)
  // physics.reference = "environment": the reference theta_0(z) is theta_e(z) (buoyancy g theta' / theta_e(z),
  // rho_0(z) in hydrostatic balance with it); else "isentropic": theta_0 constant.
  bool reference_is_environment = false;

  bool stratified() const { return profile != EnvironmentProfile::Neutral; }
  bool absorbs() const { return absorber_depth > 0.0; }
};

// dtheta_e/dz at height z: N^2 theta_0 / g for constant N (N^2 theta_e(z) / g with the environment as the
// reference: (g / theta_0(z)) S = N^2 either way), the slope of the table's segment holding z (the end
// segments beyond the table), 0 when neutral.
double environment_dtheta_dz(const EnvironmentSettings& e, double theta0, double gravity, double z);
// theta_e(z): theta_0 (neutral); theta_0 (1 + N^2 z / g) for constant N, or theta_0 exp(N^2 z / g) with
// the environment as the reference; the table's (linear between levels, the end segments beyond).
double environment_theta(const EnvironmentSettings& e, double theta0, double gravity, double z);
// The reference theta_0(z): theta_e(z) with physics.reference = "environment", else theta_0.
double reference_theta(const EnvironmentSettings& e, double theta0, double gravity, double z);

// The kEnvVectors * nz profiles of codelets/stratification for levels of thickness dz: S_k, alpha_k =
// 1 / (1 + (dt/2)^2 (g / theta_0(z_k)) S_k), the absorber's nu_k = sin^2(pi/2 (z - z_a) / depth) / timescale
// above z_a = lz - depth, rho_k and beta_k = theta_0 / theta_0(z_k).
std::vector<double> environment_profiles(const EnvironmentSettings& e, int nz, double dz, double dt, double theta0,
                                         double gravity);

// The alpha_k part alone (empty when neutral: the plain operator).
std::vector<double> environment_vertical_weights(const EnvironmentSettings& e, int nz, double dz, double dt,
                                                 double theta0, double gravity);

// rho_0(z) / rho_0(0) of the isentropic reference state of theta_0: Pi^(c_v / R), Pi = 1 - g z / (c_p theta_0).
double reference_density(double z, double theta0, double gravity);
// Pi(z) = 1 - (g / c_p) int_0^z dz' / theta_0(z') of the reference theta_0(z).
double reference_exner(const EnvironmentSettings& e, double z, double theta0, double gravity);
// rho_0(z) / rho_0(0) in hydrostatic balance with the reference theta_0(z): (theta_0(0) / theta_0(z))
// Pi^(c_v / R), Pi = 1 - (g / c_p) int_0^z dz' / theta_0(z'); reference_density's where theta_0 is constant.
double reference_density(const EnvironmentSettings& e, double z, double theta0, double gravity);
// Its values at the level centres (empty for Boussinesq: the plain operator).
std::vector<double> environment_density(const EnvironmentSettings& e, int nz, double dz, double theta0, double gravity);

// max |D(rho v) / rho| of gathered velocities ([nz][ny][nx] each; periodic in x and y, w odd and rho
// even about rigid lids), the centred divergence the anelastic step removes. 0 for empty fields.
double mass_divergence_max(const std::vector<double> (&v)[3], const std::vector<double>& rho, const Grid& g);

// The energy of linear stratified flow, per cell: (1/N) sum of w_k (|v - V|^2 + (b_k / S_k) theta'^2) / 2
// over gathered fields, b_k = g / theta_0(z_k) (the buoyancy's reference), S_k = d theta_e / dz, w_k =
// rho_0(z_k) / rho_0(0) where anelastic (`rho`), else 1, V the wind the flow turns about: the geostrophic
// wind with Coriolis, else the environment's uniform wind. The linearised equations without diffusion
// or absorber keep it (their d/dt of it is the pressure work, which the projection sums to 0; Coriolis
// turns v - V without changing its length); NaN where the environment is not stably stratified on
// every level (no such energy).
double stratified_energy(const EnvironmentSettings& e, const Grid& g, double theta0, double gravity,
                         const std::vector<double> (&v)[3], const std::vector<double>& theta,
                         const std::vector<double>& rho);

constexpr double kCp = 1004.0, kGasConstant = 287.0;  // J/(kg K), dry air (Straka et al. 1993)

}  // namespace tdc
