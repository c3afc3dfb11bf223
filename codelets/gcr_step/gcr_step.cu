#include <string>
#include <type_traits>

#include "../common/fixed_order_sum.cuh"
#include "../common/gated_graph.hpp"
#include "gcr_step_kernel.hpp"

namespace tdc {
namespace {

constexpr int kBatch = 8;  // levels loaded ahead in the Thomas sweeps (see pcg_fused.cu)

__global__ void precon_kernel(TileLayout L, const double* __restrict__ coef, const double* __restrict__ st, int vs,
                              double* __restrict__ x, double* __restrict__ r, const double* __restrict__ p_last,
                              const double* __restrict__ q_last, double* __restrict__ e, Sums<1>* groups,
                              double* r_max_out) {
  if (solver_skips(st, 2)) return;
  const double beta = st[state::kBeta];
  const int columns = L.nx * L.ny, nz = L.nz;
  const int col = blockIdx.x * kSumGroup + threadIdx.x;
  Sums<1> s{};
  double r_max = 0.0;
  if (col < columns) {
    const std::ptrdiff_t P = L.plane(), c = L.at(col % L.nx, col / L.nx, 0);
    SweepQueue wq;
    for (int k0 = 0; k0 < nz; k0 += kBatch) {  // loads of kBatch levels in flight before the recurrence
      double xb[kBatch], rb[kBatch], pb[kBatch], qb[kBatch];
#pragma unroll
      for (int b = 0; b < kBatch; ++b)
        if (k0 + b < nz) {
          const std::ptrdiff_t o = c + P * (k0 + b);
          xb[b] = x[o];
          rb[b] = r[o];
          pb[b] = p_last[o];
          qb[b] = q_last[o];
        }
#pragma unroll
      for (int b = 0; b < kBatch; ++b)
        if (k0 + b < nz) {
          const std::ptrdiff_t o = c + P * (k0 + b);
          x[o] = xb[b] + beta * pb[b];
          const double rs = rb[b] - beta * qb[b];
          r[o] = rs;
          r_max = fmax(r_max, fabs(rs));
          s.v[0] = dd_add(s.v[0], rs * rs);
          const double w = thomas_forward(coef, nz, k0 + b, rs, wq.back(vs));
          wq.push(w);
          e[o] = w;
        }
    }
    SweepQueue zq;
    for (int k0 = nz - 1; k0 >= 0; k0 -= kBatch) {
      double wb[kBatch];
#pragma unroll
      for (int b = 0; b < kBatch; ++b)
        if (k0 - b >= 0) wb[b] = e[c + P * (k0 - b)];
#pragma unroll
      for (int b = 0; b < kBatch; ++b)
        if (k0 - b >= 0) {
          const double za = thomas_backward(coef, nz, k0 - b, wb[b], zq.back(vs));
          zq.push(za);
          e[c + P * (k0 - b)] = za;
        }
    }
  }
  block_max_atomic(r_max, r_max_out);
  block_reduce_store(s, groups);
}

// One thread per cell (item order of fixed_order_sum.hpp). Only the M = basis.m sums in use go
// through the block's tree (each sum's tree is its own, so the same bits); the rest are stored as 0.
// Reducing all kMaxGcrOld double-double sums took 0.98 ms at 256^3 where the stencil alone takes 0.13.
template <int M>
__global__ void apply_kernel(TileLayout L, ColumnCouplings h, const double* __restrict__ coef,
                             const double* __restrict__ st, const double* __restrict__ e, double* __restrict__ ae,
                             GcrBasis basis, Sums<kMaxGcrOld>* groups) {
  if (solver_skips(st, 2)) return;
  const long item = long(blockIdx.x) * kSumGroup + threadIdx.x;
  Sums<kMaxGcrOld> s{};
  if (item < cell_items(L)) {
    int i, j, k;
    cell_of_item(L, item, i, j, k);
    s = gcr_apply_cell<M>(L, h, coef, e, ae, basis, i, j, k);
  }
  Sums<kMaxGcrOld> total{};
  if constexpr (M > 0) {
    Sums<M> live;
    for (int n = 0; n < M; ++n) live.v[n] = s.v[n];
    const Sums<M> t = block_tree(live);
    for (int n = 0; n < M; ++n) total.v[n] = t.v[n];
  }
  if (threadIdx.x == 0) groups[blockIdx.x] = total;
}

template <int M>
__global__ void direction_kernel(TileLayout L, const double* __restrict__ st, const double* __restrict__ e,
                                 const double* __restrict__ r, double* __restrict__ p_new, double* __restrict__ q_new,
                                 GcrBasis basis, Sums<2>* groups) {
  if (solver_skips(st, 2)) return;
  const long item = long(blockIdx.x) * kSumGroup + threadIdx.x;
  Sums<2> s{};
  if (item < cell_items(L)) {
    int i, j, k;
    cell_of_item(L, item, i, j, k);
    s = gcr_direction_cell<M>(L, st, e, r, p_new, q_new, basis, i, j, k);
  }
  block_reduce_store(s, groups);
}

// The basis's part of a gate key (GcrBasis has padding: its fields one by one).
std::string basis_key(const GcrBasis& basis) {
  std::string key = gate_key(basis.m);
  for (int n = 0; n < basis.m; ++n) key += gate_key(basis.p[n], basis.q[n]);
  return key;
}

// Calls f(std::integral_constant<int, M>) with M = m, the directions in use (0..kMaxGcrOld).
template <class F>
void with_live_directions(int m, F&& f) {
  static_assert(kMaxGcrOld == 4, "with_live_directions: one case per count");
  switch (m) {
    case 0: return f(std::integral_constant<int, 0>{});
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    default: return f(std::integral_constant<int, kMaxGcrOld>{});
  }
}

}  // namespace

void gcr_precon_cuda(const TileLayout& L, const double* coef, const double* st, int vs, double* x, double* r,
                     const double* p_last, const double* q_last, double* e, void* groups, double* out,
                     cudaStream_t stream) {
  const long n = sum_groups(column_items(L));
  auto* g = static_cast<Sums<1>*>(groups);
  zero_max_cuda(out + kMaxAbsAt, stream);
  precon_kernel<<<unsigned(n), kSumGroup, 0, stream>>>(L, coef, st, vs, x, r, p_last, q_last, e, g, out + kMaxAbsAt);
  TDC_CUDA_CHECK(cudaGetLastError());
  finish_groups_cuda<1>(g, n, out, stream, st + state::kDone, 2.0);
}

// The apply and direction kernels sit behind a gate on the state (gated_graph.hpp): a skipped
// full-size launch of either took 0.27-0.31 ms at 256^3, and a solve submits a budget of them.
void gcr_apply_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                    const double* e, double* ae, const GcrBasis& basis, void* groups, double* out,
                    cudaStream_t stream) {
  const long n = sum_groups(cell_items(L));
  auto* g = static_cast<Sums<kMaxGcrOld>*>(groups);
  launch_gated(
      "gcr_apply" + gate_key(L, h.ae, h.aw, h.an, h.as, h.h, h.s, h.z_wrap, coef, st, e, ae, groups) + basis_key(basis),
      st + state::kDone, 2.0, stream, [&](cudaStream_t capture) {
        with_live_directions(basis.m, [&](auto M) {
          apply_kernel<M><<<unsigned(n), kSumGroup, 0, capture>>>(L, h, coef, st, e, ae, basis, g);
        });
        TDC_CUDA_CHECK(cudaGetLastError());
      });
  finish_groups_cuda<kMaxGcrOld>(g, n, out, stream, st + state::kDone, 2.0);
}

void gcr_direction_cuda(const TileLayout& L, const double* st, const double* e, const double* r, double* p_new,
                        double* q_new, const GcrBasis& basis, void* groups, double* out, cudaStream_t stream) {
  const long n = sum_groups(cell_items(L));
  auto* g = static_cast<Sums<2>*>(groups);
  launch_gated("gcr_direction" + gate_key(L, st, e, r, p_new, q_new, groups) + basis_key(basis), st + state::kDone, 2.0,
               stream, [&](cudaStream_t capture) {
                 with_live_directions(basis.m, [&](auto M) {
                   direction_kernel<M><<<unsigned(n), kSumGroup, 0, capture>>>(L, st, e, r, p_new, q_new, basis, g);
                 });
                 TDC_CUDA_CHECK(cudaGetLastError());
               });
  finish_groups_cuda<2>(g, n, out, stream, st + state::kDone, 2.0);
}

}  // namespace tdc
