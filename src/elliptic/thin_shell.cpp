#include "thin_shell.hpp"

#include <cmath>
#include <cstdint>

#include "../../codelets/common/double_double.hpp"

namespace tdc {

ThinShell::ThinShell(const ThinShellParams& p) : p_(p), dx_(p.lx / p.nx), dy_(p.ly / p.ny) {
  const int nz = p.nz;
  omega2_ = p.omega2;
  if (p.courant_reference_nx > 0)
    omega2_ *= double(p.courant_reference_nx) * p.courant_reference_nx / (double(p.nx) * p.nx);
  r_.resize(nz + 1);
  for (int k = 0; k <= nz; ++k) {
    const double s = double(k) / nz;
    r_[k] = 1.0 + (p.graded ? s * s : s) * p.height;
  }
  vol_.resize(nz);
  for (int k = 0; k < nz; ++k) vol_[k] = (r_[k + 1] * r_[k + 1] * r_[k + 1] - r_[k] * r_[k] * r_[k]) / 3.0;

  const double area = dx_ * dy_, ax = dy_ / dx_, ay = dx_ / dy_;
  h_.ae = ax - p.skew * dy_ / 2;
  h_.aw = ax + p.skew * dy_ / 2;
  h_.an = ay;
  h_.as = ay;
  const double alpha_t = h_.ae + h_.aw + h_.an + h_.as;
  coef_.assign(std::size_t(kLevelVectors) * nz, 0.0);
  auto at = [&](int vec, int k) -> double& { return coef_[std::size_t(vec) * nz + k]; };
  for (int k = 0; k < nz; ++k) {
    const double cb = k + 1 < nz ? p.lambda2 * area * r_[k + 1] * r_[k + 1] / ((rho(k + 1) - rho(k)) * vol_[k]) : 0.0;
    const double cc = k > 0 ? p.lambda2 * area * r_[k] * r_[k] / ((rho(k) - rho(k - 1)) * vol_[k]) : 0.0;
    at(kC0, k) = -area / omega2_ - alpha_t - cb - cc;
    at(kCb, k) = cb;
    at(kCc, k) = cc;
    at(kD, k) = -omega2_ * vol_[k];
  }
  finish_thomas_vectors(coef_.data(), nz, area);
}

double ThinShell::exact(int i, int j, int k) const {
  const double kx = 2 * M_PI / p_.lx, ky = 2 * M_PI / p_.ly, m = M_PI / p_.height;
  return std::cos(kx * x(i)) * std::cos(ky * y(j)) * std::cos(m * (rho(k) - 1.0));
}

namespace {
// Noise in [-1, 1) from the global cell index alone (splitmix64), so any tiling sees the same f.
double cell_noise(std::uint64_t n) {
  n += 0x9e3779b97f4a7c15ull;
  n = (n ^ (n >> 30)) * 0xbf58476d1ce4e5b9ull;
  n = (n ^ (n >> 27)) * 0x94d049bb133111ebull;
  n ^= n >> 31;
  return double(n >> 11) * 0x1.0p-52 - 1.0;
}
}  // namespace

double ThinShell::rhs(int i, int j, int k) const {
  if (p_.random_rhs) return cell_noise((std::uint64_t(k) * p_.ny + j) * p_.nx + i) * cell_volume(k);
  const double kx = 2 * M_PI / p_.lx, ky = 2 * M_PI / p_.ly, m = M_PI / p_.height;
  const double r = rho(k), cx = std::cos(kx * x(i)), cy = std::cos(ky * y(j));
  const double g = std::cos(m * (r - 1.0)), dg = -m * std::sin(m * (r - 1.0)), d2g = -m * m * g;
  const double u = cx * cy * g;
  const double lap2d = -(kx * kx + ky * ky) * u;
  const double dudx = -kx * std::sin(kx * x(i)) * cy * g;
  const double radial = cx * cy * (d2g + 2.0 * dg / r);
  const double f = -omega2_ * (lap2d - p_.skew * dudx + p_.lambda2 * radial) + u;
  return f * cell_volume(k);
}

void ThinShell::fill_rhs(const TileLayout& L, int origin_x, int origin_y, double* tile) const {
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) tile[L.at(i, j, k)] = rhs(origin_x + i, origin_y + j, k);
}

void ThinShell::errors(const std::vector<double>& u, double& l2_rel, double& max_abs) const {
  DD err2, ref2;
  max_abs = 0.0;
  std::size_t n = 0;
  for (int k = 0; k < p_.nz; ++k)
    for (int j = 0; j < p_.ny; ++j)
      for (int i = 0; i < p_.nx; ++i, ++n) {
        const double e = exact(i, j, k), d = u[n] - e, v = cell_volume(k);
        err2 = dd_add(err2, v * d * d);
        ref2 = dd_add(ref2, v * e * e);
        max_abs = std::max(max_abs, std::fabs(d));
      }
  l2_rel = std::sqrt(dd_value(err2) / dd_value(ref2));
}

}  // namespace tdc
