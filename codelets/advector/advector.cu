#include "../common/cuda_check.hpp"
#include "advector_kernel.hpp"

namespace tdc {
namespace {

__global__ void advector_kernel(AdvectorArgs a, VelocityPointers p, double* c1, double* c2, double* c3) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y, k = blockIdx.z;
  if (i < a.L.nx && j < a.L.ny) advector_cell(a, p, c1, c2, c3, i, j, k);
}

}  // namespace

void advector_cuda(const AdvectorArgs& a, const VelocityPointers& p, double* c1, double* c2, double* c3,
                   cudaStream_t stream) {
  const dim3 block(32, 8), grid((a.L.nx + 31) / 32, (a.L.ny + 7) / 8, a.L.nz);
  advector_kernel<<<grid, block, 0, stream>>>(a, p, c1, c2, c3);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
