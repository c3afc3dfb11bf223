// environment_source, implicit_buoyancy, height_buoyancy and stratified_gradient codelets on one tile (see
// stratification_kernel.hpp); `env` is the read-only vector of per-level profiles.
#pragma once
#include <starpu.h>

#include "stratification_kernel.hpp"

namespace tdc {

void insert_environment_source(const ScaledArgs& a, starpu_data_handle_t env, starpu_data_handle_t w,
                               starpu_data_handle_t theta, int priority);
void insert_implicit_buoyancy(const ScaledArgs& a, starpu_data_handle_t env, starpu_data_handle_t theta,
                              starpu_data_handle_t w, int priority);
void insert_height_buoyancy(const ScaledArgs& a, starpu_data_handle_t env, starpu_data_handle_t theta,
                            starpu_data_handle_t w, int priority);
void insert_stratified_gradient(const CentredArgs& a, starpu_data_handle_t env, starpu_data_handle_t p,
                                const starpu_data_handle_t vel[3], int priority);

}  // namespace tdc
