#include "../common/cuda_check.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "multigrid_kernel.hpp"

namespace tdc {
namespace {

// A thread per cell: x and y from the block grid, z from blockIdx.z (as elliptic_apply).
__global__ void restrict_kernel(TileLayout F, TileLayout C, ColumnCouplings h, const double* __restrict__ coef,
                                const double* __restrict__ st, int skip_from, const double* __restrict__ r,
                                const double* __restrict__ z, double* __restrict__ rc) {
  if (solver_skips(st, skip_from)) return;
  const int I = blockIdx.x * blockDim.x + threadIdx.x, J = blockIdx.y * blockDim.y + threadIdx.y, K = blockIdx.z;
  if (I < C.nx && J < C.ny) rc[C.at(I, J, K)] = restrict_residual_cell(F, h, coef, r, z, I, J, K);
}

__global__ void prolong_kernel(TileLayout F, TileLayout C, ColumnCouplings h, const double* __restrict__ st, int skip_from,
                               const double* __restrict__ zc, double* __restrict__ z) {
  if (solver_skips(st, skip_from)) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y, k = blockIdx.z;
  if (i < F.nx && j < F.ny)
    z[F.at(i, j, k)] += zc[C.at(coarse_of_fine(i, h.h), coarse_of_fine(j, h.h), coarse_of_fine(k, h.s))];
}

__global__ void jacobi_kernel(TileLayout L, ColumnCouplings h, const double* __restrict__ coef,
                              const double* __restrict__ st, int skip_from, double omega, bool first,
                              const double* __restrict__ r, const double* __restrict__ z_in,
                              double* __restrict__ z_out) {
  if (solver_skips(st, skip_from)) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y, k = blockIdx.z;
  if (i >= L.nx || j >= L.ny) return;
  const std::ptrdiff_t o = L.at(i, j, k);
  z_out[o] = first ? jacobi_first(coef, L.nz, k, omega, r[o]) : jacobi_cell(L, h, coef, omega, r, z_in, i, j, k);
}

dim3 cells_grid(int nx, int ny, int nz, dim3 block) {
  return dim3((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y, nz);
}

}  // namespace

void mg_restrict_residual_cuda(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* coef, const double* st,
                               int skip_from, const double* r, const double* z, double* rc, cudaStream_t stream) {
  const dim3 block(32, 8);
  restrict_kernel<<<cells_grid(C.nx, C.ny, C.nz, block), block, 0, stream>>>(F, C, h, coef, st, skip_from, r, z, rc);
  TDC_CUDA_CHECK(cudaGetLastError());
}

void mg_prolong_add_cuda(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* st, int skip_from,
                         const double* zc, double* z, cudaStream_t stream) {
  const dim3 block(32, 8);
  prolong_kernel<<<cells_grid(F.nx, F.ny, F.nz, block), block, 0, stream>>>(F, C, h, st, skip_from, zc, z);
  TDC_CUDA_CHECK(cudaGetLastError());
}

void mg_jacobi_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st, int skip_from,
                    double omega, bool first, const double* r, const double* z_in, double* z_out, cudaStream_t stream) {
  const dim3 block(32, 8);
  jacobi_kernel<<<cells_grid(L.nx, L.ny, L.nz, block), block, 0, stream>>>(L, h, coef, st, skip_from, omega, first, r,
                                                                          z_in, z_out);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
