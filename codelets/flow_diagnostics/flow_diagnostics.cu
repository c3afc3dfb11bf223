#include "../common/fixed_order_sum.cuh"
#include "flow_diagnostics_kernel.hpp"

namespace tdc {
namespace {

// Maxima through atomicMax on an order-preserving integer key of the double (exact, so the order
// in which blocks arrive does not matter).
__device__ unsigned long long max_key(double x) {
  const unsigned long long b = __double_as_longlong(x);
  return (b >> 63) ? ~b : b | 0x8000000000000000ull;
}
__device__ double from_key(unsigned long long k) {
  return __longlong_as_double((k >> 63) ? k & 0x7fffffffffffffffull : ~k);
}

struct Scratch {
  unsigned long long* keys;  // kFlowMaxima
  Sums<kFlowSums>* groups;   // one per group of kSumGroup cells
};
Scratch scratch_of(void* p) {
  auto* keys = static_cast<unsigned long long*>(p);
  return {keys, reinterpret_cast<Sums<kFlowSums>*>(keys + 8)};  // 64-byte aligned groups
}

__global__ void cells_kernel(FlowDiagnosticsArgs a, const double* u, const double* v, const double* w, const double* th,
                             Scratch s) {
  const TileLayout& L = a.centred.L;
  const long item = long(blockIdx.x) * kSumGroup + threadIdx.x;
  FlowCell c{};
  for (int q = 0; q < kFlowMaxima; ++q) c.m[q] = -INFINITY;
  if (item < cell_items(L)) {
    int i, j, k;
    cell_of_item(L, item, i, j, k);
    c = flow_cell(a, u, v, w, th, i, j, k);
  }
  block_reduce_store(c.s, s.groups);
  __shared__ double m[kFlowMaxima][kSumGroup];
  for (int q = 0; q < kFlowMaxima; ++q) m[q][threadIdx.x] = c.m[q];
  __syncthreads();
  for (int stride = kSumGroup / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      for (int q = 0; q < kFlowMaxima; ++q) m[q][threadIdx.x] = fmax_(m[q][threadIdx.x], m[q][threadIdx.x + stride]);
    __syncthreads();
  }
  if (threadIdx.x < kFlowMaxima) atomicMax(&s.keys[threadIdx.x], max_key(m[threadIdx.x][0]));
}

__global__ void maxima_kernel(const unsigned long long* keys, double* out) {
  if (threadIdx.x < kFlowMaxima) out[2 * kFlowSums + threadIdx.x] = from_key(keys[threadIdx.x]);
}

}  // namespace

std::size_t flow_diagnostics_scratch_bytes(const TileLayout& L) {
  return 8 * sizeof(unsigned long long) + std::size_t(sum_groups(cell_items(L))) * sizeof(Sums<kFlowSums>);
}

void flow_diagnostics_cuda(const FlowDiagnosticsArgs& a, const double* u, const double* v, const double* w,
                           const double* th, void* scratch, double* out, cudaStream_t stream) {
  const Scratch s = scratch_of(scratch);
  const long groups = sum_groups(cell_items(a.centred.L));
  TDC_CUDA_CHECK(cudaMemsetAsync(s.keys, 0, kFlowMaxima * sizeof(unsigned long long), stream));  // below -inf
  cells_kernel<<<unsigned(groups), kSumGroup, 0, stream>>>(a, u, v, w, th, s);
  TDC_CUDA_CHECK(cudaGetLastError());
  finish_groups_cuda(s.groups, groups, out, stream);
  maxima_kernel<<<1, 32, 0, stream>>>(s.keys, out);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
