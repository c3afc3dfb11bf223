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

CollocatedLaplacian collocated_laplacian(const Grid& g, ZBoundary zb, const std::vector<double>& alpha) {
  if (alpha.empty()) return collocated_laplacian(g, zb);
  CollocatedLaplacian op = collocated_laplacian(g, zb);
  const double ax = op.couplings.ae, ay = op.couplings.an, az = 1.0 / (4.0 * g.dz() * g.dz());
  const int nz = g.nz;
  auto& c = op.level_coefficients;
  for (int k = 0; k < nz; ++k) {
    const double up = az * alpha[k_above(k, nz, zb)], down = az * alpha[k_below(k, nz, zb)];
    c[kCb * nz + k] = up;
    c[kCc * nz + k] = down;
    c[kC0 * nz + k] = -2.0 * (ax + ay) - (up + down);
  }
  finish_thomas_vectors(c.data(), nz, 1.0, 2);
  return op;
}

std::vector<OperatorLevel> collocated_laplacian_levels(const Grid& g, ZBoundary zb, int levels,
                                                       const std::vector<double>& vertical_weights) {
  std::vector<OperatorLevel> out;
  Grid level = g;
  std::vector<double> alpha = vertical_weights;
  for (int l = 0; l < levels; ++l) {
    CollocatedLaplacian op = collocated_laplacian(level, zb, alpha);
    out.push_back({level, op.couplings, std::move(op.level_coefficients)});
    level.nx /= 2;
    level.ny /= 2;
    level.nz /= 2;
    if (!alpha.empty()) {
      std::vector<double> coarse(level.nz);
      for (int k = 0; k < level.nz; ++k) coarse[k] = 0.5 * (alpha[2 * k] + alpha[2 * k + 1]);
      alpha = std::move(coarse);
    }
  }
  return out;
}

}  // namespace tdc
