// CUDA half of fixed_order_sum.hpp: the same trees, in shared memory. Kernels that produce items run
// blocks of exactly kSumGroup threads, one item per thread, and every thread must reach
// block_reduce_store (return early only for the whole block at once).
#pragma once
#include "cuda_check.hpp"
#include "fixed_order_sum.hpp"

namespace tdc {

// The tree of tree_reduce (fixed_order_sum.hpp): warp shuffles for strides 16..1 (lane t takes lane
// t + stride), then thread 0 combines the 8 warp results by strides 4, 2, 1. Result in thread 0.
template <int N>
__device__ Sums<N> block_tree(Sums<N> v) {
  __shared__ Sums<N> warp_sums[kSumGroup / kWarp];
  for (int stride = kWarp / 2; stride > 0; stride /= 2) {
    Sums<N> o;
    for (int n = 0; n < N; ++n) {
      o.v[n].hi = __shfl_down_sync(0xffffffffu, v.v[n].hi, stride);
      o.v[n].lo = __shfl_down_sync(0xffffffffu, v.v[n].lo, stride);
    }
    v = merge(v, o);  // only lanes below `stride` matter: they pair exactly as on the CPU
  }
  const int t = threadIdx.x;
  if (t % kWarp == 0) warp_sums[t / kWarp] = v;
  __syncthreads();
  if (t == 0) {
    for (int stride = kSumGroup / kWarp / 2; stride > 0; stride /= 2)
      for (int w = 0; w < stride; ++w) warp_sums[w] = merge(warp_sums[w], warp_sums[w + stride]);
    v = warp_sums[0];
  }
  return v;
}

template <int N>
__device__ void block_reduce_store(const Sums<N>& mine, Sums<N>* group_out) {
  const Sums<N> total = block_tree(mine);
  if (threadIdx.x == 0) group_out[blockIdx.x] = total;
}

// Maxima need no fixed order (they are exact): a block's maximum of non-negative values goes to *out
// by one atomicMax per warp on the bit patterns (for x >= 0 the IEEE bits order like the values).
// Every thread of the block must call it; *out must be zeroed before the kernel (zero_max_cuda).
__device__ inline void block_max_atomic(double v, double* out) {
  for (int stride = kWarp / 2; stride > 0; stride /= 2) v = fmax(v, __shfl_down_sync(0xffffffffu, v, stride));
  if (threadIdx.x % kWarp == 0)
    atomicMax(reinterpret_cast<unsigned long long*>(out), static_cast<unsigned long long>(__double_as_longlong(v)));
}

inline void zero_max_cuda(double* out, cudaStream_t stream) {
  TDC_CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(double), stream));
}

// A solver's skipped reduction (its item kernel returned at once) must be cheap too: with `done`
// given, the finish returns at once when *done >= skip_at (one block merging every group costs
// ~0.1 ms at 256^3, more than the skipped item kernel).
template <int N>
__global__ void finish_groups_kernel(const Sums<N>* groups, long count, double* out, const double* done,
                                     double skip_at) {
  if (done && *done >= skip_at) return;
  Sums<N> lane{};
  for (long q = threadIdx.x; q < count; q += kSumGroup) lane = merge(lane, groups[q]);
  const Sums<N> total = block_tree(lane);
  if (threadIdx.x == 0) store_sums(total, out);
}

template <int N>
void finish_groups_cuda(const Sums<N>* groups, long count, double* out, cudaStream_t stream,
                        const double* done = nullptr, double skip_at = 0.0) {
  finish_groups_kernel<N><<<1, kSumGroup, 0, stream>>>(groups, count, out, done, skip_at);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
