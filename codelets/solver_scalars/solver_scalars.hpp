// solver_scalars codelet: one task per solver half-iteration, reading every tile's partial and
// updating the state (see solver_scalars_kernel.hpp). High priority: every tile waits for it.
#pragma once
#include <starpu.h>

#include <vector>

#include "solver_scalars_kernel.hpp"

namespace tdc {

void insert_solver_scalars(const ScalarsArgs& a, starpu_data_handle_t state,
                           const std::vector<starpu_data_handle_t>& partials);

}  // namespace tdc
