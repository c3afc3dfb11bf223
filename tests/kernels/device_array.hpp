// Device memory for the CPU/CUDA agreement tests: a device copy of a host vector that can be read
// back, and whether this machine has a device at all.
#pragma once
#include <cuda_runtime_api.h>

#include <vector>

namespace tdc_test {

inline bool have_device() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

struct DeviceArray {
  double* p = nullptr;
  std::size_t n = 0;
  explicit DeviceArray(const std::vector<double>& h) : n(h.size()) {
    cudaMalloc(reinterpret_cast<void**>(&p), n * sizeof(double));
    cudaMemcpy(p, h.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  }
  explicit DeviceArray(std::size_t count, double fill) : DeviceArray(std::vector<double>(count, fill)) {}
  ~DeviceArray() { cudaFree(p); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  std::vector<double> host() const {
    std::vector<double> h(n);
    cudaDeviceSynchronize();
    cudaMemcpy(h.data(), p, n * sizeof(double), cudaMemcpyDeviceToHost);
    return h;
  }
};

}  // namespace tdc_test
