#include "collocated_laplacian.hpp"

namespace tdc {

CollocatedLaplacian collocated_laplacian(const Grid& g, ZBoundary zb) {
  CollocatedLaplacian op;
  const double ax = 1.0 / (4.0 * g.dx() * g.dx()), ay = 1.0 / (4.0 * g.dy() * g.dy()),
               az = 1.0 / (4.0 * g.dz() * g.dz());
  op.couplings = ColumnCouplings{ax, ax, ay, ay, 2, 2, zb == ZBoundary::Rigid ? kWrapMirror : kWrapPeriodic};
  const int nz = g.nz;
  auto& c = op.level_coefficients;
  c.assign(std::size_t(kLevelVectors) * nz, 0.0);
  for (int k = 0; k < nz; ++k) {
    c[kCb * nz + k] = az;
    c[kCc * nz + k] = az;
    c[kC0 * nz + k] = -2.0 * (ax + ay + az);
    c[kD * nz + k] = -1.0;  // A = -L
  }
  finish_thomas_vectors(c.data(), nz, 1.0, 2);
  return op;
}

CollocatedLaplacian collocated_laplacian(const Grid& g, ZBoundary zb, const std::vector<double>& alpha,
                                         const std::vector<double>& density) {
  if (alpha.empty() && density.empty()) return collocated_laplacian(g, zb);
  CollocatedLaplacian op = collocated_laplacian(g, zb);
  const double ax = op.couplings.ae, ay = op.couplings.an, az = 1.0 / (4.0 * g.dz() * g.dz());
  const int nz = g.nz;
  auto weight = [&](int k) { return (alpha.empty() ? 1.0 : alpha[k]) * (density.empty() ? 1.0 : density[k]); };
  auto& c = op.level_coefficients;
  for (int k = 0; k < nz; ++k) {
    const double rho = density.empty() ? 1.0 : density[k];
    const double up = az * weight(k_above(k, nz, zb)) / rho, down = az * weight(k_below(k, nz, zb)) / rho;
    c[kCb * nz + k] = up;
    c[kCc * nz + k] = down;
    c[kC0 * nz + k] = -2.0 * (ax + ay) - (up + down);
    c[kD * nz + k] = -rho;
  }
  finish_thomas_vectors(c.data(), nz, 1.0, 2);
  return op;
}

std::vector<OperatorLevel> collocated_laplacian_levels(const Grid& g, ZBoundary zb, int levels,
                                                       const std::vector<double>& vertical_weights,
                                                       const std::vector<double>& density) {
  std::vector<OperatorLevel> out;
  Grid level = g;
  std::vector<double> alpha = vertical_weights, rho = density;
  auto coarsen = [](std::vector<double>& v) {
    if (v.empty()) return;
    std::vector<double> coarse(v.size() / 2);
    for (std::size_t k = 0; k < coarse.size(); ++k) coarse[k] = 0.5 * (v[2 * k] + v[2 * k + 1]);
    v = std::move(coarse);
  };
  for (int l = 0; l < levels; ++l) {
    CollocatedLaplacian op = collocated_laplacian(level, zb, alpha, rho);
    out.push_back({level, op.couplings, std::move(op.level_coefficients)});
    level.nx /= 2;
    level.ny /= 2;
    level.nz /= 2;
    coarsen(alpha);
    coarsen(rho);
  }
  return out;
}

}  // namespace tdc
