// EULAG's laplc on the collocated grid (paper 000 §5.4): the divergence of the centred gradient,
// both with centred differences, so neighbours are two cells away in every direction:
//   L(p)_ijk = (p_i+2 - 2 p + p_i-2) / (4 dx^2) + (same in y) + (same in z),
// the operator whose solution makes a velocity corrected by the centred gradient free of the centred
// divergence (the projection of the NFT step). As a column operator (codelets/column_operator) with
// strides 2, periodic in x and y and here also in z; the line preconditioner solves the two interleaved
// vertical systems of each column (the wrapped couplings dropped). The solvers get A = -L (positive
// semi-definite; its null space, the constant and the 2-cell checkerboards, has no gradient).
#pragma once
#include <vector>

#include "../codelets/column_operator/column_operator.hpp"
#include "grid.hpp"

namespace tdc {

struct CollocatedLaplacian {
  ColumnCouplings couplings;
  std::vector<double> level_coefficients;  // kLevelVectors * nz
};

// For a uniform, triply periodic grid (the halo of the tiles must be at least 2).
CollocatedLaplacian collocated_laplacian(const Grid& g);

}  // namespace tdc
