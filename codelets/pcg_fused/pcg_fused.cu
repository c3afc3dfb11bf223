#include "../common/cell_loop.cuh"
#include "../common/fixed_order_sum.cuh"
#include "../common/gated_graph.hpp"
#include "../vector_update/vector_update_kernel.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "pcg_fused_kernel.hpp"

namespace tdc {
namespace {

// One thread per cell (item order of fixed_order_sum.hpp), a block per group. The warp-per-group form
// (fixed_order_sum.cuh's warp_group) held 8 runs per lane: 70 registers, 37.5 % occupancy, 2.05 TB/s
// at 256^3; this form takes 40 registers (TG 256^3: 19.7-19.9 against 19.8-20.5 ms/step, same call).
// Launched behind a gate (gated_graph.hpp): a skipped grid of one block per group costs one small kernel.
template <int S, bool ZPeriodic>
__global__ void __launch_bounds__(kSumGroup)
    fused_apply_kernel(TileLayout L, ColumnCouplings h, const double* __restrict__ coef, const double* __restrict__ st,
                       double* __restrict__ u, double* __restrict__ p, const double* __restrict__ z,
                       double* __restrict__ q, Sums<1>* groups) {
  if (solver_skips(st, 2)) return;
  h = with_strides<S>(h);
  const double alpha = st[state::kAlpha], beta = st[state::kBeta];
  const bool finishing = st[state::kDone] >= 1.0;
  const long item = long(blockIdx.x) * kSumGroup + threadIdx.x;
  Sums<1> s{};
  if (item < cell_items(L)) {
    int i, j, k;
    cell_of_item(L, item, i, j, k);
    const std::ptrdiff_t o = L.at(i, j, k);
    const double pk = p[o];
    u[o] = u[o] + alpha * pk;
    if (!finishing) {
      const double ps = z[o] + beta * pk;
      p[o] = ps;
      const double az = ZPeriodic ? apply_cell_from(L, h, coef, i, j, k, PeriodicAt(L, z, i, j, k))
                                  : apply_cell(L, h, coef, z, i, j, k);
      const double qs = az + beta * q[o];
      q[o] = qs;
      s.v[0] = dd_add(s.v[0], ps * qs);
    }
  }
  block_reduce_store(s, groups);
}

template <int S>
__global__ void start_kernel(TileLayout L, ColumnCouplings h, const double* __restrict__ coef,
                             const double* __restrict__ u, const double* __restrict__ f, double* __restrict__ r,
                             double* __restrict__ p, double* __restrict__ q) {
  h = with_strides<S>(h);
  for_each_cell(L.nx, L.ny, [&](int i, int j, int k) {
    const std::ptrdiff_t o = L.at(i, j, k);
    const double fo = f[o];
    r[o] = axpby(1.0, fo, -1.0, apply_cell(L, h, coef, u, i, j, k));
    p[o] = q[o] = axpby(0.0, fo, 0.0, 0.0);
  });
}

}  // namespace

void pcg_start_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* u, const double* f,
                    double* r, double* p, double* q, cudaStream_t stream) {
  with_stride_constant(h, [&](auto S) {
    start_kernel<decltype(S)::value>
        <<<cell_grid(L.nx, L.ny, L.nz), cell_block(), 0, stream>>>(L, h, coef, u, f, r, p, q);
  });
  TDC_CUDA_CHECK(cudaGetLastError());
}

void pcg_fused_apply_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                          double* u, double* p, const double* z, double* q, void* groups, double* out,
                          cudaStream_t stream, bool z_periodic) {
  const long n = sum_groups(cell_items(L));
  auto* g = static_cast<Sums<1>*>(groups);
  launch_gated(gate_key(L, h.ae, h.aw, h.an, h.as, h.h, h.s, h.z_wrap, coef, st, u, p, z, q, groups, z_periodic),
               st + state::kDone, 2.0, stream, [&](cudaStream_t capture) {
                 with_stride_constant(h, [&](auto S) {
                   if (z_periodic)
                     fused_apply_kernel<decltype(S)::value, true>
                         <<<unsigned(n), kSumGroup, 0, capture>>>(L, h, coef, st, u, p, z, q, g);
                   else
                     fused_apply_kernel<decltype(S)::value, false>
                         <<<unsigned(n), kSumGroup, 0, capture>>>(L, h, coef, st, u, p, z, q, g);
                 });
                 TDC_CUDA_CHECK(cudaGetLastError());
               });
  finish_groups_cuda<1>(g, n, out, stream, st + state::kDone, 2.0);
}

}  // namespace tdc
