#include "../common/cell_loop.cuh"
#include "viscous_diffusion_kernel.hpp"

namespace tdc {
namespace {

template <int N>
struct Fields {
  const double* src[N];
  double* dst[N];
  double parity[N];
};

template <int N>
__global__ void diffusion_kernel(DiffusionArgs a, Fields<N> f) {
  for_each_box_cell(ring_box(a.L, a.ring), [&](int i, int j, int k) {
    const std::ptrdiff_t o = a.L.at(i, j, k);
    for (int q = 0; q < N; ++q) f.dst[q][o] = f.dst[q][o] + laplacian_term(a, f.src[q], i, j, k, f.parity[q]);
  });
}

template <int N>
void launch(const DiffusionArgs& a, const Fields<N>& f, cudaStream_t s) {
  diffusion_kernel<N><<<box_grid(ring_box(a.L, a.ring), a.L.nz), cell_block(), 0, s>>>(a, f);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void viscous_diffusion_cuda(const DiffusionArgs& a, const double* const src[3], double* const dst[3], cudaStream_t s) {
  launch(a, Fields<3>{{src[0], src[1], src[2]}, {dst[0], dst[1], dst[2]}, {1.0, 1.0, -1.0}}, s);
}

void scalar_diffusion_cuda(const DiffusionArgs& a, const double* src, double* dst, cudaStream_t s) {
  launch(a, Fields<1>{{src}, {dst}, {1.0}}, s);
}

}  // namespace tdc
