#include "../common/cuda_check.hpp"
#include "buoyancy_kernel.hpp"

namespace tdc {
namespace {

__global__ void buoyancy_kernel(BuoyancyArgs a, const double* theta, double* w) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y, k = blockIdx.z;
  if (i < a.L.nx && j < a.L.ny) buoyancy_cell(a, theta, w, i, j, k);
}

}  // namespace

void buoyancy_cuda(const BuoyancyArgs& a, const double* theta, double* w, cudaStream_t stream) {
  buoyancy_kernel<<<dim3((a.L.nx + 31) / 32, (a.L.ny + 7) / 8, a.L.nz), dim3(32, 8), 0, stream>>>(a, theta, w);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
