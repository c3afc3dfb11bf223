// Turns a failed CUDA call into an exception that names the call and where it was made.
#pragma once
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

#define TDC_CUDA_CHECK(call)                                                                                           \
  do {                                                                                                                 \
    cudaError_t tdc_err_ = (call);                                                                                     \
    if (tdc_err_ != cudaSuccess)                                                                                       \
      throw std::runtime_error(std::string(#call) + " failed at " + __FILE__ + ":" + std::to_string(__LINE__) + ": " + \
                               cudaGetErrorString(tdc_err_));                                                          \
  } while (0)
