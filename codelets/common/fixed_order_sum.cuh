// CUDA half of fixed_order_sum.hpp: the same trees, in shared memory. Kernels that produce items run
// blocks of exactly kSumGroup threads, one item per thread, and every thread must reach
// block_reduce_store (return early only for the whole block at once).
#pragma once
#include "cuda_check.hpp"
#include "fixed_order_sum.hpp"

namespace tdc {

template <int N>
__device__ void block_reduce_store(const Sums<N>& mine, Sums<N>* group_out) {
  __shared__ Sums<N> s[kSumGroup];
  const int t = threadIdx.x;
  s[t] = mine;
  __syncthreads();
  for (int stride = kSumGroup / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] = merge(s[t], s[t + stride]);
    __syncthreads();
  }
  if (t == 0) group_out[blockIdx.x] = s[0];
}

template <int N>
__global__ void finish_groups_kernel(const Sums<N>* groups, long count, double* out) {
  __shared__ Sums<N> s[kSumGroup];
  const int t = threadIdx.x;
  Sums<N> lane{};
  for (long q = t; q < count; q += kSumGroup) lane = merge(lane, groups[q]);
  s[t] = lane;
  __syncthreads();
  for (int stride = kSumGroup / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] = merge(s[t], s[t + stride]);
    __syncthreads();
  }
  if (t == 0) store_sums(s[0], out);
}

template <int N>
void finish_groups_cuda(const Sums<N>* groups, long count, double* out, cudaStream_t stream) {
  finish_groups_kernel<N><<<1, kSumGroup, 0, stream>>>(groups, count, out);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
