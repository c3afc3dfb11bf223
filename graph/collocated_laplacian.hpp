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

// D(Gx p, Gy p, alpha_k Gz p) with a weight alpha_k per level (nz values): the operator of the
// stratified step, whose implicit buoyancy scales the vertical pressure gradient
// (codelets/stratification). The vertical couplings take the weight of the level whose gradient they
// difference, alpha_(k+1) and alpha_(k-1), with the level beyond a lid its mirror image (or its
// periodic image), so the operator stays symmetric. Empty weights: collocated_laplacian itself.
CollocatedLaplacian collocated_laplacian(const Grid& g, ZBoundary zb, const std::vector<double>& vertical_weights);

// The multigrid hierarchy of laplc: level 0 on g, each next level on a grid of half the cells in every
// direction (the same lengths), laplc rediscretised there (with vertical weights: averaged in pairs).
std::vector<OperatorLevel> collocated_laplacian_levels(const Grid& g, ZBoundary zb, int levels,
                                                       const std::vector<double>& vertical_weights = {});

}  // namespace tdc
