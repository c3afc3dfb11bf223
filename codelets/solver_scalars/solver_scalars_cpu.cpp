#include "solver_scalars_update.hpp"

namespace tdc {

void solver_scalars_cpu(const ScalarsArgs& a, double* st, const double* const* partials) {
  solver_scalars_update(a, st, partials);
}

}  // namespace tdc
