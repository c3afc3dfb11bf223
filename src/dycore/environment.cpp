#include "environment.hpp"

#include <cmath>

#include "../../codelets/stratification/stratification_kernel.hpp"

namespace tdc {

double environment_dtheta_dz(const EnvironmentSettings& e, double theta0, double gravity, double z) {
  switch (e.profile) {
    case EnvironmentProfile::Neutral: return 0.0;
    case EnvironmentProfile::ConstantN: return e.brunt_vaisala * e.brunt_vaisala * theta0 / gravity;
    case EnvironmentProfile::Table: {
      const auto& zs = e.table_z;
      const auto& th = e.table_theta;
      if (zs.size() < 2) return 0.0;
      std::size_t s = 0;
      while (s + 2 < zs.size() && z > zs[s + 1]) ++s;
      return (th[s + 1] - th[s]) / (zs[s + 1] - zs[s]);
    }
  }
  return 0.0;
}

std::vector<double> environment_profiles(const EnvironmentSettings& e, int nz, double dz, double dt, double theta0,
                                         double gravity) {
  std::vector<double> p(std::size_t(kEnvVectors) * nz, 0.0);
  const double lz = nz * dz, b = gravity / theta0;
  for (int k = 0; k < nz; ++k) {
    const double z = (k + 0.5) * dz;
    const double s = environment_dtheta_dz(e, theta0, gravity, z);
    p[kEnvDthetaDz * nz + k] = s;
    p[kEnvAlpha * nz + k] = 1.0 / (1.0 + 0.25 * dt * dt * b * s);
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

}  // namespace tdc
