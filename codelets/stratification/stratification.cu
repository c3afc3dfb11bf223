#include "../common/cell_loop.cuh"
#include "stratification_kernel.hpp"

namespace tdc {
namespace {

__global__ void environment_source_kernel(ScaledArgs a, const double* e, const double* w, double* theta) {
  for_each_box_cell(ring_box(a.L, a.ring), [&](int i, int j, int k) { environment_source_cell(a, e, w, theta, i, j, k); });
}
__global__ void implicit_buoyancy_kernel(ScaledArgs a, const double* e, const double* theta, double* w) {
  for_each_box_cell(ring_box(a.L, a.ring), [&](int i, int j, int k) { implicit_buoyancy_cell(a, e, theta, w, i, j, k); });
}
__global__ void height_buoyancy_kernel(ScaledArgs a, const double* e, const double* theta, double* w) {
  for_each_box_cell(ring_box(a.L, a.ring), [&](int i, int j, int k) { height_buoyancy_cell(a, e, theta, w, i, j, k); });
}
__global__ void stratified_gradient_kernel(CentredArgs a, const double* e, const double* p, double* u, double* v,
                                           double* w) {
  for_each_box_cell(ring_box(a.L, a.ring), [&](int i, int j, int k) { stratified_gradient_cell(a, e, p, u, v, w, i, j, k); });
}

}  // namespace

void environment_source_cuda(const ScaledArgs& a, const double* e, const double* w, double* theta, cudaStream_t s) {
  environment_source_kernel<<<box_grid(ring_box(a.L, a.ring), a.L.nz), cell_block(), 0, s>>>(a, e, w, theta);
  TDC_CUDA_CHECK(cudaGetLastError());
}
void implicit_buoyancy_cuda(const ScaledArgs& a, const double* e, const double* theta, double* w, cudaStream_t s) {
  implicit_buoyancy_kernel<<<box_grid(ring_box(a.L, a.ring), a.L.nz), cell_block(), 0, s>>>(a, e, theta, w);
  TDC_CUDA_CHECK(cudaGetLastError());
}
void height_buoyancy_cuda(const ScaledArgs& a, const double* e, const double* theta, double* w, cudaStream_t s) {
  height_buoyancy_kernel<<<box_grid(ring_box(a.L, a.ring), a.L.nz), cell_block(), 0, s>>>(a, e, theta, w);
  TDC_CUDA_CHECK(cudaGetLastError());
}
void stratified_gradient_cuda(const CentredArgs& a, const double* e, const double* p, double* u, double* v, double* w,
                              cudaStream_t s) {
  stratified_gradient_kernel<<<box_grid(ring_box(a.L, a.ring), a.L.nz), cell_block(), 0, s>>>(a, e, p, u, v, w);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
