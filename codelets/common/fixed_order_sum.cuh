// CUDA half of fixed_order_sum.hpp: the same trees, in registers and shared memory. Kernels that use
// block_reduce_store run blocks of exactly kSumGroup threads, one item per thread, and every thread
// must reach it (return early only for the whole block at once); warp_group kernels give each group
// to one warp.
#pragma once
#include <algorithm>

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

// The largest value of the block (kSumGroup threads) into *out; a maximum is exact in any order.
__device__ inline void block_max_store(double v, double* out) {
  __shared__ double warp_max[kSumGroup / kWarp];
  for (int stride = kWarp / 2; stride > 0; stride /= 2) v = fmax(v, __shfl_down_sync(0xffffffffu, v, stride));
  if (threadIdx.x % kWarp == 0) warp_max[threadIdx.x / kWarp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < kSumGroup / kWarp; ++w) v = fmax(v, warp_max[w]);
    *out = v;
  }
}

// The same tree with a warp per group, for item kernels that loop over groups (a cheap skip: the
// grid is what the GPU holds resident; no barriers between groups). Lane t of the
// warp computes item g kSumGroup + 32 w + t of each run w = 0..7 (all loads first), reduces every run by
// the warp stage of block_tree, then lane 0 combines the 8 run results by strides 4, 2, 1: the same
// pairs as block_tree, so the same bits. `item(n, sums, max)` adds item n to sums (starting from zero)
// and may raise max. With group_max, the group's largest max goes to group_max[g].
template <int N, class Item>
__device__ __forceinline__ void warp_group(long g, long items, Item&& item, Sums<N>* groups, double* group_max) {
  constexpr int kRuns = kSumGroup / kWarp;
  const int lane = int(threadIdx.x) % kWarp;
  Sums<N> run[kRuns];
  double m = 0.0;
#pragma unroll
  for (int w = 0; w < kRuns; ++w) {
    run[w] = Sums<N>{};
    const long n = g * kSumGroup + w * kWarp + lane;
    if (n < items) item(n, run[w], m);
  }
#pragma unroll
  for (int stride = kWarp / 2; stride > 0; stride /= 2)
#pragma unroll
    for (int w = 0; w < kRuns; ++w) {
      Sums<N> o;
      for (int q = 0; q < N; ++q) {
        o.v[q].hi = __shfl_down_sync(0xffffffffu, run[w].v[q].hi, stride);
        o.v[q].lo = __shfl_down_sync(0xffffffffu, run[w].v[q].lo, stride);
      }
      run[w] = merge(run[w], o);
    }
  if (group_max)
    for (int stride = kWarp / 2; stride > 0; stride /= 2) m = fmax(m, __shfl_down_sync(0xffffffffu, m, stride));
  if (lane == 0) {
#pragma unroll
    for (int stride = kRuns / 2; stride > 0; stride /= 2)
#pragma unroll
      for (int w = 0; w < stride; ++w) run[w] = merge(run[w], run[w + stride]);
    groups[g] = run[0];
    if (group_max) group_max[g] = m;
  }
}

// Blocks the current device holds resident at once with `threads` per block.
inline long resident_blocks(int threads) {
  int device = 0, sms = 0, per_sm = 0;
  TDC_CUDA_CHECK(cudaGetDevice(&device));
  TDC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  TDC_CUDA_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  return long(sms) * std::max(1, per_sm / threads);
}

// Launch shape for warp_group kernels: blocks of kWarpGroupThreads, at most what the GPU holds resident.
constexpr int kWarpGroupThreads = 256;
inline unsigned warp_group_grid(long groups) {
  const long warps_per_block = kWarpGroupThreads / kWarp;
  return unsigned(
      std::max(1L, std::min((groups + warps_per_block - 1) / warps_per_block, resident_blocks(kWarpGroupThreads))));
}
// The first group of this warp and the stride between its groups.
__device__ __forceinline__ long warp_group_first() {
  return long(blockIdx.x) * (blockDim.x / kWarp) + threadIdx.x / kWarp;
}
__device__ __forceinline__ long warp_group_stride() { return long(gridDim.x) * (blockDim.x / kWarp); }

// Maxima need no fixed order (they are exact): a block's maximum of non-negative values goes to *out
// by one atomicMax on the bit patterns (for x >= 0 the IEEE bits order like the values; the sign bit
// is cleared first, since a -0 from a product of zeros would outrank them all). One a block,
// not one a warp: at 256^3 the Courant check's half a million atomics on one address took 0.5 ms.
// Every thread of the block must call it; *out must be zeroed before the kernel (zero_max_cuda).
__device__ inline void block_max_atomic(double v, double* out) {
  __shared__ double warp_max[1024 / kWarp];
  for (int stride = kWarp / 2; stride > 0; stride /= 2) v = fmax(v, __shfl_down_sync(0xffffffffu, v, stride));
  const int tid = int(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
  const int warps = int(blockDim.x * blockDim.y * blockDim.z + kWarp - 1) / kWarp;
  if (tid % kWarp == 0) warp_max[tid / kWarp] = v;
  __syncthreads();
  if (tid < kWarp) {
    v = tid < warps ? warp_max[tid] : 0.0;
    for (int stride = kWarp / 2; stride > 0; stride /= 2) v = fmax(v, __shfl_down_sync(0xffffffffu, v, stride));
    if (tid == 0)
      atomicMax(reinterpret_cast<unsigned long long*>(out),
                static_cast<unsigned long long>(__double_as_longlong(v)) & 0x7fffffffffffffffull);
  }
  __syncthreads();  // warp_max is free for the next call
}

inline void zero_max_cuda(double* out, cudaStream_t stream) {
  TDC_CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(double), stream));
}

// A solver's skipped reduction (its item kernel returned at once) must be cheap too: with `done`
// given, the finish returns at once when *done >= skip_at (one block merging every group costs
// ~0.1 ms at 256^3, more than the skipped item kernel).
// With group_max given, also the largest of the groups' maxima into *max_out. A lane's groups are
// loaded kAhead at a time before it merges them in order: one block, so its time is load latency
// (at 256^3, 256 groups per lane one load at a time took ~0.3 ms).
template <int N>
__device__ void finish_groups_block(const Sums<N>* groups, long count, double* out, const double* group_max,
                                    double* max_out) {
  constexpr int kAhead = 8;
  Sums<N> lane{};
  double m = 0.0;
  for (long q0 = threadIdx.x; q0 < count; q0 += long(kAhead) * kSumGroup) {
    Sums<N> buf[kAhead];
#pragma unroll
    for (int a = 0; a < kAhead; ++a) {
      const long q = q0 + long(a) * kSumGroup;
      if (q < count) {
        buf[a] = groups[q];
        if (group_max) m = fmax(m, group_max[q]);
      }
    }
#pragma unroll
    for (int a = 0; a < kAhead; ++a)
      if (q0 + long(a) * kSumGroup < count) lane = merge(lane, buf[a]);
  }
  const Sums<N> total = block_tree(lane);
  if (threadIdx.x == 0) store_sums(total, out);
  if (group_max) block_max_store(m, max_out);
}
template <int N>
__global__ void finish_groups_kernel(const Sums<N>* groups, long count, double* out, const double* done, double skip_at,
                                     const double* group_max, double* max_out) {
  if (done && *done >= skip_at) return;
  finish_groups_block(groups, count, out, group_max, max_out);
}

template <int N>
void finish_groups_cuda(const Sums<N>* groups, long count, double* out, cudaStream_t stream,
                        const double* done = nullptr, double skip_at = 0.0, const double* group_max = nullptr,
                        double* max_out = nullptr) {
  finish_groups_kernel<N><<<1, kSumGroup, 0, stream>>>(groups, count, out, done, skip_at, group_max, max_out);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
