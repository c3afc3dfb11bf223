// vector_update codelet: y <- a x + b y on one tile (see vector_update_kernel.hpp). With b == 0 the
// task only writes y.
#pragma once
#include <starpu.h>

#include "vector_update_kernel.hpp"

namespace tdc {

void insert_vector_update(const VectorUpdateArgs& a, starpu_data_handle_t state, starpu_data_handle_t x,
                          starpu_data_handle_t y, int priority);

}  // namespace tdc
