// EULAG's laplc on the collocated grid (paper 000 §5.4): the divergence of the centred gradient,
// both with centred differences, so neighbours are two cells away in every direction:
//   L(p)_ijk = (p_i+2 - 2 p + p_i-2) / (4 dx^2) + (same in y) + (same in z),
// the operator whose solution makes a velocity corrected by the centred gradient free of the centred
// divergence (the projection of the NFT step). As a column operator (codelets/column_operator) with
// strides 2, periodic in x and y; in z periodic too, or mirrored about rigid lids (p even about a lid,
// so a level beyond it is its mirror image: the centred gradient of p is then odd, as w must be, and
// D(G p) = L p still holds exactly). The line preconditioner solves the two interleaved vertical
// systems of each column (the wrapped or mirrored couplings dropped). The solvers get A = -L (positive
// semi-definite; its null space, the constant and the 2-cell checkerboards, has no gradient; the
// mirror joins a column's two interleaved chains, so z-checkerboards are not in it under lids).
#pragma once
#include <vector>

#include "../codelets/column_operator/column_operator.hpp"
#include "multigrid_precon.hpp"
#include "runtime/grid.hpp"

namespace tdc {

struct CollocatedLaplacian {
  ColumnCouplings couplings;
  std::vector<double> level_coefficients;  // kLevelVectors * nz
};

// For a uniform grid, periodic in x and y (the halo of the tiles must be at least 2).
CollocatedLaplacian collocated_laplacian(const Grid& g, ZBoundary zb = ZBoundary::Periodic);

// D(rho (Gx p, Gy p, alpha_k Gz p)) with a weight alpha_k and a density rho_k per level (nz values
// each, or empty for ones): the operator of the stratified step, whose implicit buoyancy scales the
// vertical pressure gradient (codelets/stratification), under the anelastic constraint D(rho v) = 0
// (codelets/anelastic). The vertical couplings take the weight and density of the level whose
// gradient they difference, k+1 and k-1, with the level beyond a lid its mirror image (or its periodic
// image); the horizontal ones rho_k through d_k = -rho_k, so the operator stays symmetric (to the
// rounding of rho_(k+1) alpha_(k+1) / rho_k). Both empty: collocated_laplacian itself.
CollocatedLaplacian collocated_laplacian(const Grid& g, ZBoundary zb, const std::vector<double>& vertical_weights,
                                         const std::vector<double>& density = {});

// The multigrid hierarchy of laplc: level 0 on g, each next level on a grid of half the cells in every
// direction (the same lengths), laplc rediscretised there (weights and density averaged in pairs).
std::vector<OperatorLevel> collocated_laplacian_levels(const Grid& g, ZBoundary zb, int levels,
                                                       const std::vector<double>& vertical_weights = {},
                                                       const std::vector<double>& density = {});

}  // namespace tdc
