// The measures of Straka et al. (1993)'s density current at a gathered theta' ([nz][ny][nx]): the
// front, where the -1 K contour meets the ground (the lowest level, averaged over y, linear between
// cell centres), as distances from the bubble's centre on both sides, and the minimum of theta'.
#pragma once
#include <vector>

#include "../../graph/runtime/grid.hpp"

namespace tdc {

struct CurrentFront {
  double right_m = 0, left_m = 0;  // the front's distance from x_c, m (0: no cell below -1 K)
  double theta_min_K = 0;
};

CurrentFront density_current_front(const std::vector<double>& theta, const Grid& g, double xc);

// The values Straka et al. (1993) report for their converged solutions at 900 s (dx = 25 m).
constexpr double kStrakaFrontM = 15540.0, kStrakaThetaMinK = -9.77;

}  // namespace tdc
