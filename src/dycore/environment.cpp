#include "environment.hpp"

#include <algorithm>
#include <cmath>

#include "../../codelets/stratification/stratification_kernel.hpp"

namespace tdc {

namespace {

// The table's segment [zs[s], zs[s + 1]] that holds z (the first or last one beyond the table).
std::size_t table_segment(const std::vector<double>& zs, double z) {
  std::size_t s = 0;
  while (s + 2 < zs.size() && z > zs[s + 1]) ++s;
  return s;
}

}  // namespace

double environment_dtheta_dz(const EnvironmentSettings& e, double theta0, double gravity, double z) {
  switch (e.profile) {
    case EnvironmentProfile::Neutral: return 0.0;
    case EnvironmentProfile::ConstantN:
      return e.brunt_vaisala * e.brunt_vaisala * reference_theta(e, theta0, gravity, z) / gravity;
    case EnvironmentProfile::Table: {
      const auto& zs = e.table_z;
      const auto& th = e.table_theta;
      if (zs.size() < 2) return 0.0;
      const std::size_t s = table_segment(zs, z);
      return (th[s + 1] - th[s]) / (zs[s + 1] - zs[s]);
    }
  }
  return 0.0;
}

double environment_theta(const EnvironmentSettings& e, double theta0, double gravity, double z) {
  switch (e.profile) {
    case EnvironmentProfile::Neutral: return theta0;
    case EnvironmentProfile::ConstantN: {
      const double n2g = e.brunt_vaisala * e.brunt_vaisala / gravity;
      return e.reference_is_environment ? theta0 * std::exp(n2g * z) : theta0 * (1.0 + n2g * z);
    }
    case EnvironmentProfile::Table: {
      const auto& zs = e.table_z;
      const auto& th = e.table_theta;
      if (zs.size() < 2) return zs.empty() ? theta0 : th[0];
      const std::size_t s = table_segment(zs, z);
      return th[s] + (th[s + 1] - th[s]) * (z - zs[s]) / (zs[s + 1] - zs[s]);
    }
  }
  return theta0;
}

double reference_theta(const EnvironmentSettings& e, double theta0, double gravity, double z) {
  return e.reference_is_environment ? environment_theta(e, theta0, gravity, z) : theta0;
}

std::vector<double> environment_profiles(const EnvironmentSettings& e, int nz, double dz, double dt, double theta0,
                                         double gravity) {
  std::vector<double> p(std::size_t(kEnvVectors) * nz, 0.0);
  const double lz = nz * dz;
  for (int k = 0; k < nz; ++k) {
    const double z = (k + 0.5) * dz;
    const double s = environment_dtheta_dz(e, theta0, gravity, z);
    const double theta_ref = reference_theta(e, theta0, gravity, z), b = gravity / theta_ref;
    p[kEnvDensity * nz + k] = e.anelastic ? reference_density(e, z, theta0, gravity) : 1.0;
    p[kEnvDthetaDz * nz + k] = s;
    p[kEnvAlpha * nz + k] = 1.0 / (1.0 + 0.25 * dt * dt * b * s);
    p[kEnvBuoyancy * nz + k] = theta0 / theta_ref;  // exactly 1 for a constant theta_0
    if (e.absorbs() && z > lz - e.absorber_depth) {
      const double r = std::sin(0.5 * M_PI * (z - (lz - e.absorber_depth)) / e.absorber_depth);
      p[kEnvDamping * nz + k] = r * r / e.absorber_timescale;
    }
  }
  return p;
}

std::vector<double> environment_vertical_weights(const EnvironmentSettings& e, int nz, double dz, double dt,
                                                 double theta0, double gravity) {
  if (!e.stratified()) return {};
  const std::vector<double> p = environment_profiles(e, nz, dz, dt, theta0, gravity);
  return std::vector<double>(p.begin() + std::ptrdiff_t(kEnvAlpha) * nz,
                             p.begin() + std::ptrdiff_t(kEnvAlpha + 1) * nz);
}

double reference_density(double z, double theta0, double gravity) {
  return std::pow(1.0 - gravity * z / (kCp * theta0), (kCp - kGasConstant) / kGasConstant);
}

double reference_exner(const EnvironmentSettings& e, double z, double theta0, double gravity) {
  if (!e.reference_is_environment) return 1.0 - gravity * z / (kCp * theta0);
  // int_0^z dz' / theta_0(z') by the composite Simpson rule on steps of at most 1 m (theta_0 is smooth
  // or piecewise linear: the rule is exact to round-off well below the solver's tolerance).
  const int n = 2 * std::max(1, int(std::ceil(z / 2.0)));
  const double h = z / n;
  double sum = 0.0;
  for (int i = 0; i <= n; ++i) {
    const double w = (i == 0 || i == n) ? 1.0 : (i % 2 ? 4.0 : 2.0);
    sum += w / reference_theta(e, theta0, gravity, i * h);
  }
  return 1.0 - gravity / kCp * (h / 3.0) * sum;
}

double reference_density(const EnvironmentSettings& e, double z, double theta0, double gravity) {
  if (!e.reference_is_environment) return reference_density(z, theta0, gravity);
  return reference_theta(e, theta0, gravity, 0.0) / reference_theta(e, theta0, gravity, z) *
         std::pow(reference_exner(e, z, theta0, gravity), (kCp - kGasConstant) / kGasConstant);
}

std::vector<double> environment_density(const EnvironmentSettings& e, int nz, double dz, double theta0,
                                        double gravity) {
  if (!e.anelastic) return {};
  std::vector<double> rho(nz);
  for (int k = 0; k < nz; ++k) rho[k] = reference_density(e, (k + 0.5) * dz, theta0, gravity);
  return rho;
}

double mass_divergence_max(const std::vector<double> (&v)[3], const std::vector<double>& rho, const Grid& g) {
  if (v[0].empty()) return 0.0;
  const int nx = g.nx, ny = g.ny, nz = g.nz;
  auto at = [&](int q, int i, int j, int k) {
    i = (i + nx) % nx;
    j = (j + ny) % ny;
    double sign = 1.0;
    if (k < 0 || k >= nz) {  // the mirror image about the lid
      k = k < 0 ? -1 - k : 2 * nz - 1 - k;
      sign = q == 2 ? -1.0 : 1.0;
    }
    return sign * v[q][(std::size_t(k) * ny + j) * nx + i];
  };
  auto density = [&](int k) { return rho[k < 0 ? -1 - k : (k >= nz ? 2 * nz - 1 - k : k)]; };
  const double hx = 0.5 / g.dx(), hy = 0.5 / g.dy(), hz = 0.5 / g.dz();
  double worst = 0.0;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const double d =
            rho[k] * (hx * (at(0, i + 1, j, k) - at(0, i - 1, j, k)) + hy * (at(1, i, j + 1, k) - at(1, i, j - 1, k))) +
            hz * (density(k + 1) * at(2, i, j, k + 1) - density(k - 1) * at(2, i, j, k - 1));
        worst = std::max(worst, std::fabs(d) / rho[k]);
      }
  return worst;
}

double stratified_energy(const EnvironmentSettings& e, const Grid& g, double theta0, double gravity,
                         const std::vector<double> (&v)[3], const std::vector<double>& theta,
                         const std::vector<double>& rho) {
  const std::size_t level = std::size_t(g.nx) * g.ny;
  if (theta.size() != level * g.nz) return std::nan("");
  std::vector<double> weight(g.nz);  // w_k b_k / S_k
  for (int k = 0; k < g.nz; ++k) {
    const double z = (k + 0.5) * g.dz(), s = environment_dtheta_dz(e, theta0, gravity, z);
    if (!(s > 0.0)) return std::nan("");
    weight[k] = gravity / reference_theta(e, theta0, gravity, z) / s;
  }
  const double wind_u = e.coriolis != 0.0 ? e.geostrophic_u : e.wind_u;
  const double wind_v = e.coriolis != 0.0 ? e.geostrophic_v : e.wind_v;
  double sum = 0.0;
  for (int k = 0; k < g.nz; ++k) {
    const double w = rho.empty() ? 1.0 : rho[k];
    double level_sum = 0.0;
    for (std::size_t c = k * level; c < (k + 1) * level; ++c) {
      const double du = v[0][c] - wind_u, dv = v[1][c] - wind_v;
      level_sum += du * du + dv * dv + v[2][c] * v[2][c] + weight[k] * theta[c] * theta[c];
    }
    sum += 0.5 * w * level_sum;
  }
  return sum / double(theta.size());
}

}  // namespace tdc
