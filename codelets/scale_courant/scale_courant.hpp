// scale_courant: c = factor * s for the three Courant-number components of a tile (time-dependent
// flows whose spatial pattern is fixed, e.g. the deformational flow: factor = cos(pi t / T)). One
// multiplication per value, so CPU and CUDA agree bit for bit.
#pragma once
#include <starpu.h>

#include "scale_courant_kernel.hpp"

namespace tdc {

void insert_scale_courant(double factor, const starpu_data_handle_t spatial[3], const starpu_data_handle_t courant[3]);

}  // namespace tdc
