#include "../common/cell_loop.cuh"
#include "coriolis_kernel.hpp"

namespace tdc {
namespace {

__global__ void coriolis_kernel(CoriolisArgs a, const double* un, const double* vn, const double* uo, const double* vo,
                                double* u, double* v) {
  for_each_box_cell(ring_box(a.L, a.ring), [&](int i, int j, int k) { coriolis_cell(a, un, vn, uo, vo, u, v, i, j, k); });
}

}  // namespace

void coriolis_cuda(const CoriolisArgs& a, const double* un, const double* vn, const double* uo, const double* vo,
                   double* u, double* v, cudaStream_t s) {
  coriolis_kernel<<<box_grid(ring_box(a.L, a.ring), a.L.nz), cell_block(), 0, s>>>(a, un, vn, uo, vo, u, v);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
