#include "../common/cell_loop.cuh"
#include "pressure_gradient_kernel.hpp"

namespace tdc {
namespace {

__global__ void gradient_kernel(CentredArgs a, Box b, const double* p, const double* u0, const double* v0,
                                const double* w0, double* u, double* v, double* w) {
  for_each_box_cell(b, [&](int i, int j, int k) { pressure_gradient_cell(a, p, u0, v0, w0, u, v, w, i, j, k); });
}
__global__ void divergence_kernel(CentredArgs a, Box b, const double* u, const double* v, const double* w, double* f) {
  for_each_box_cell(b, [&](int i, int j, int k) { f[a.L.at(i, j, k)] = divergence_cell(a, u, v, w, i, j, k); });
}
// A split task's border (several parts) in one launch.
__global__ void gradient_set_kernel(CentredArgs a, BoxSet b, const double* p, const double* u0, const double* v0,
                                    const double* w0, double* u, double* v, double* w) {
  for_each_box_set_cell(b, a.L.nz,
                        [&](int i, int j, int k) { pressure_gradient_cell(a, p, u0, v0, w0, u, v, w, i, j, k); });
}
__global__ void divergence_set_kernel(CentredArgs a, BoxSet b, const double* u, const double* v, const double* w,
                                      double* f) {
  for_each_box_set_cell(b, a.L.nz,
                        [&](int i, int j, int k) { f[a.L.at(i, j, k)] = divergence_cell(a, u, v, w, i, j, k); });
}

}  // namespace

void pressure_gradient_from_cuda(const CentredArgs& a, const double* p, const double* const v0[3], double* const v[3],
                                 cudaStream_t s) {
  if (a.n_parts > 1) {
    const BoxSet b = box_set(a.parts, a.n_parts);
    if (b.level > 0)
      gradient_set_kernel<<<box_set_grid(b, a.L.nz), kBoxSetThreads, 0, s>>>(a, b, p, v0[0], v0[1], v0[2], v[0], v[1],
                                                                            v[2]);
    TDC_CUDA_CHECK(cudaGetLastError());
    return;
  }
  for (int n = 0; n < part_count(a); ++n) {
    const Box b = part_of(a, gradient_whole(a), n);
    if (b.empty()) continue;
    gradient_kernel<<<box_grid(b, a.L.nz), cell_block(), 0, s>>>(a, b, p, v0[0], v0[1], v0[2], v[0], v[1], v[2]);
    TDC_CUDA_CHECK(cudaGetLastError());
  }
}
void pressure_gradient_cuda(const CentredArgs& a, const double* p, double* u, double* v, double* w, cudaStream_t s) {
  double* const vel[3] = {u, v, w};
  pressure_gradient_from_cuda(a, p, vel, vel, s);
}
void divergence_cuda(const CentredArgs& a, const double* u, const double* v, const double* w, double* f,
                     cudaStream_t s) {
  if (a.n_parts > 1) {
    const BoxSet b = box_set(a.parts, a.n_parts);
    if (b.level > 0) divergence_set_kernel<<<box_set_grid(b, a.L.nz), kBoxSetThreads, 0, s>>>(a, b, u, v, w, f);
    TDC_CUDA_CHECK(cudaGetLastError());
    return;
  }
  for (int n = 0; n < part_count(a); ++n) {
    const Box b = part_of(a, divergence_whole(a), n);
    if (b.empty()) continue;
    divergence_kernel<<<box_grid(b, a.L.nz), cell_block(), 0, s>>>(a, b, u, v, w, f);
    TDC_CUDA_CHECK(cudaGetLastError());
  }
}

}  // namespace tdc
