// viscous_diffusion and scalar_diffusion codelets on one tile (see viscous_diffusion_kernel.hpp).
#pragma once
#include <starpu.h>

#include "viscous_diffusion_kernel.hpp"

namespace tdc {

// src: v^n copies (R, valid ghost ring); dst: the forced velocity components (RW).
void insert_viscous_diffusion(const DiffusionArgs& a, const starpu_data_handle_t src[3],
                              const starpu_data_handle_t dst[3], int priority);
// src: a scalar's copy at step n (R, valid ghost ring); dst: the scalar being forced (RW).
void insert_scalar_diffusion(const DiffusionArgs& a, starpu_data_handle_t src, starpu_data_handle_t dst, int priority);

}  // namespace tdc
