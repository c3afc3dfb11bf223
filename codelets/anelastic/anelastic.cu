#include "../common/cell_loop.cuh"
#include "anelastic_kernel.hpp"

namespace tdc {
namespace {

__global__ void mass_courant_kernel(MassCourantArgs a, const double* e, double* c1, double* c2, double* c3) {
  for_each_box_cell(advector_box(a.L, a.ring), [&](int i, int j, int k) { mass_courant_cell(a, e, c1, c2, c3, i, j, k); });
}
__global__ void mass_divergence_kernel(CentredArgs a, const double* e, const double* u, const double* v,
                                       const double* w, double* f) {
  for_each_cell(a.L.nx, a.L.ny,
                [&](int i, int j, int k) { f[a.L.at(i, j, k)] = mass_divergence_cell(a, e, u, v, w, i, j, k); });
}

}  // namespace

void mass_courant_cuda(const MassCourantArgs& a, const double* e, double* c1, double* c2, double* c3, cudaStream_t s) {
  mass_courant_kernel<<<box_grid(advector_box(a.L, a.ring), a.L.nz), cell_block(), 0, s>>>(a, e, c1, c2, c3);
  TDC_CUDA_CHECK(cudaGetLastError());
}
void mass_divergence_cuda(const CentredArgs& a, const double* e, const double* u, const double* v, const double* w,
                          double* f, cudaStream_t s) {
  mass_divergence_kernel<<<cell_grid(a.L.nx, a.L.ny, a.L.nz), cell_block(), 0, s>>>(a, e, u, v, w, f);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
