// The thin-shell model equation of paper 002 (eq. 1), discretised by finite volumes on a regular,
// doubly periodic horizontal grid and graded vertical levels, with a manufactured solution:
//
//   -omega^2 ( Lap_2d u - c du/dx + lambda^2 r^-2 d/dr (r^2 du/dr) ) + u = f,   r in [1, 1 + H],
//   zero flux at r = 1 and r = 1 + H,   u* = cos(2 pi x / Lx) cos(2 pi y / Ly) cos(pi (r - 1) / H).
//
// Multiplying by r^2 and integrating over a cell gives the column operator of paper 002 eq. (18)
// (codelets/column_operator): d_k = -omega^2 V_k with V_k = (r_{k+1}^3 - r_k^3) / 3, a'_k = -1/omega^2,
// b'_k, c'_k from the radial fluxes r^2 du/dr across the level interfaces, alpha = dy/dx and dx/dy
// for the horizontal edges (c shifts the x couplings by -+ c dy / 2). The unknowns are cell-centre
// values; the discretisation is second order.
#pragma once
#include <vector>

#include "../../codelets/column_operator/column_operator.hpp"
#include "elliptic_config.hpp"

namespace tdc {

class ThinShell {
 public:
  explicit ThinShell(const ThinShellParams& p);
  const ThinShellParams& params() const { return p_; }
  double omega2() const { return omega2_; }  // after the optional fixed-Courant scaling
  const std::vector<double>& level_coefficients() const { return coef_; }
  ColumnCouplings couplings() const { return h_; }
  double x(int i) const { return (i + 0.5) * dx_; }
  double y(int j) const { return (j + 0.5) * dy_; }
  double rho(int k) const { return 0.5 * (r_[k] + r_[k + 1]); }  // level centre
  double level(int k) const { return r_[k]; }                    // interface k (0..nz)
  double cell_volume(int k) const { return dx_ * dy_ * vol_[k]; }
  double exact(int i, int j, int k) const;
  // The right-hand side of cell (i, j, k): the cell integral of r^2 f (midpoint rule), or noise
  // times the cell volume when params().random_rhs.
  double rhs(int i, int j, int k) const;
  // Fills the interior of one tile (host array laid out as `L`) with rhs().
  void fill_rhs(const TileLayout& L, int origin_x, int origin_y, double* tile) const;
  // Volume-weighted relative L2 error and max error of a global field ([nz][ny][nx]).
  void errors(const std::vector<double>& u, double& l2_rel, double& max_abs) const;

 private:
  ThinShellParams p_;
  double omega2_, dx_, dy_;
  std::vector<double> r_, vol_, coef_;
  ColumnCouplings h_;
};

}  // namespace tdc
