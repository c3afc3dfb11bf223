#include "../common/cuda_check.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "line_precon_kernel.hpp"

namespace tdc {
namespace {

__global__ void precon_kernel(TileLayout L, const double* __restrict__ coef, const double* __restrict__ st,
                              int skip_from, int s, const double* __restrict__ r, double* __restrict__ z) {
  if (solver_skips(st, skip_from)) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= L.nx || j >= L.ny) return;
  const int nz = L.nz;
  const std::ptrdiff_t p = L.plane(), c = L.at(i, j, 0);
  SweepQueue wq;
#pragma unroll 4
  for (int k = 0; k < nz; ++k) {
    const double w = thomas_forward(coef, nz, k, r[c + p * k], wq.back(s));
    wq.push(w);
    z[c + p * k] = w;
  }
  SweepQueue zq;
#pragma unroll 4
  for (int k = nz - 1; k >= 0; --k) {
    const double za = thomas_backward(coef, nz, k, z[c + p * k], zq.back(s));
    zq.push(za);
    z[c + p * k] = za;
  }
}

}  // namespace

void line_precon_cuda(const TileLayout& L, const double* coef, const double* st, int skip_from, int s, const double* r,
                      double* z, cudaStream_t stream) {
  const dim3 block(64, 2);  // paper 002 §6.1: B_x = 64, B_y = 2
  const dim3 grid((L.nx + 63) / 64, (L.ny + 1) / 2);
  precon_kernel<<<grid, block, 0, stream>>>(L, coef, st, skip_from, s, r, z);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
