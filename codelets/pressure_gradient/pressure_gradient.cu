#include "../common/cell_loop.cuh"
#include "pressure_gradient_kernel.hpp"

namespace tdc {
namespace {

__global__ void gradient_kernel(CentredArgs a, const double* p, const double* u0, const double* v0, const double* w0,
                                double* u, double* v, double* w) {
  for_each_box_cell(ring_box(a.L, a.ring),
                    [&](int i, int j, int k) { pressure_gradient_cell(a, p, u0, v0, w0, u, v, w, i, j, k); });
}
__global__ void divergence_kernel(CentredArgs a, const double* u, const double* v, const double* w, double* f) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y, k = blockIdx.z;
  if (i < a.L.nx && j < a.L.ny) f[a.L.at(i, j, k)] = divergence_cell(a, u, v, w, i, j, k);
}
dim3 grid_of(const TileLayout& L) { return dim3((L.nx + 31) / 32, (L.ny + 7) / 8, L.nz); }

}  // namespace

void pressure_gradient_from_cuda(const CentredArgs& a, const double* p, const double* const v0[3], double* const v[3],
                                 cudaStream_t s) {
  gradient_kernel<<<box_grid(ring_box(a.L, a.ring), a.L.nz), cell_block(), 0, s>>>(a, p, v0[0], v0[1], v0[2], v[0], v[1], v[2]);
  TDC_CUDA_CHECK(cudaGetLastError());
}
void pressure_gradient_cuda(const CentredArgs& a, const double* p, double* u, double* v, double* w, cudaStream_t s) {
  double* const vel[3] = {u, v, w};
  pressure_gradient_from_cuda(a, p, vel, vel, s);
}
void divergence_cuda(const CentredArgs& a, const double* u, const double* v, const double* w, double* f,
                     cudaStream_t s) {
  divergence_kernel<<<grid_of(a.L), dim3(32, 8), 0, s>>>(a, u, v, w, f);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
