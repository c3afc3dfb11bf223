// Typed access to a task's buffers inside codelet functions.
#pragma once
#include <starpu.h>

namespace tdc {

inline double* block_ptr(void* b[], int n) { return reinterpret_cast<double*>(STARPU_BLOCK_GET_PTR(b[n])); }
inline double* vector_ptr(void* b[], int n) { return reinterpret_cast<double*>(STARPU_VECTOR_GET_PTR(b[n])); }

}  // namespace tdc
