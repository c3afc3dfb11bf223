#include "density_current.hpp"

#include <algorithm>
#include <cmath>

namespace tdc {

CurrentFront density_current_front(const std::vector<double>& theta, const Grid& g, double xc) {
  CurrentFront f;
  f.theta_min_K = *std::min_element(theta.begin(), theta.end());
  std::vector<double> ground(g.nx, 0.0);  // level 0, averaged over y
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) ground[i] += theta[std::size_t(j) * g.nx + i] / g.ny;
  const double threshold = -1.0;
  // The outermost cell at or below the threshold on each side, and the crossing beyond it.
  for (int i = 0; i + 1 < g.nx; ++i) {
    const double x = (i + 0.5) * g.dx();
    if (ground[i] <= threshold && ground[i + 1] > threshold && x >= xc) {
      const double cross = x + g.dx() * (threshold - ground[i]) / (ground[i + 1] - ground[i]);
      f.right_m = std::max(f.right_m, cross - xc);
    }
    if (ground[i] > threshold && ground[i + 1] <= threshold && x < xc) {
      const double cross = x + g.dx() * (threshold - ground[i]) / (ground[i + 1] - ground[i]);
      f.left_m = std::max(f.left_m, xc - cross);
    }
  }
  return f;
}

}  // namespace tdc
