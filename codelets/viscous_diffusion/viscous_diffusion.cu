#include "../common/cuda_check.hpp"
#include "viscous_diffusion_kernel.hpp"

namespace tdc {
namespace {

struct Fields {
  const double* src[3];
  double* dst[3];
};

__global__ void diffusion_kernel(DiffusionArgs a, Fields f) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y, k = blockIdx.z;
  if (i >= a.L.nx || j >= a.L.ny) return;
  const std::ptrdiff_t o = a.L.at(i, j, k);
  for (int q = 0; q < 3; ++q) f.dst[q][o] = f.dst[q][o] + laplacian_term(a, f.src[q], i, j, k, q == 2 ? -1.0 : 1.0);
}

}  // namespace

void viscous_diffusion_cuda(const DiffusionArgs& a, const double* const src[3], double* const dst[3], cudaStream_t s) {
  const Fields f{{src[0], src[1], src[2]}, {dst[0], dst[1], dst[2]}};
  diffusion_kernel<<<dim3((a.L.nx + 31) / 32, (a.L.ny + 7) / 8, a.L.nz), dim3(32, 8), 0, s>>>(a, f);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
