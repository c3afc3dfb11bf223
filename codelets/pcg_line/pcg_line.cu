#include <type_traits>

#include "../common/cell_loop.cuh"
#include "../common/fixed_order_sum.cuh"
#include "../common/gated_graph.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "pcg_line_kernel.hpp"

namespace tdc {
namespace {

// The forward sweep loads this many levels (r and A p) before their dependent arithmetic,
// so that a thread keeps many loads in flight: one thread per column leaves too few threads to hide
// memory latency otherwise. 4, 8 and 16 levels took 0.402-0.406, 0.408-0.412 and 0.426-0.446 ms per
// thin-shell iteration (256x256x128, two rounds in one call).
constexpr int kBatch = 4;

// One thread per column (the Thomas sweeps are sequential in k), blocks of kSumGroup columns.
// The backward sweep takes the levels in chunks of kLineChunk from the top: it reloads r for the chunk,
// recomputes the chunk's w from the two w stored below it (the forward sweep left them in z), then
// eliminates downwards. The recomputed w are the forward sweep's bits: the same r, the same formula.
// Two blocks per SM (at most 128 registers): 256 blocks of 256 columns then run in one wave.
template <int S>
__global__ void __launch_bounds__(kSumGroup, 2)
    line_step_kernel(TileLayout L, ColumnCouplings h, const double* __restrict__ coef, const double* __restrict__ st,
                     const double* __restrict__ ap, double* __restrict__ r, double* __restrict__ z,
                     Sums<2>* groups, double* r_max_out) {
  if (solver_skips(st, 1)) return;
  h = with_strides<S>(h);
  const int vs = h.s;
  const double alpha = st[state::kAlpha];
  const bool first = st[state::kIter] == 0.0;
  const int nz = L.nz;
  const int col = blockIdx.x * kSumGroup + threadIdx.x;
  Sums<2> s{};
  double r_max = 0.0;
  if (col < L.nx * L.ny) {
    const std::ptrdiff_t P = L.plane(), c = L.at(col % L.nx, col / L.nx, 0);
    SweepQueue wq;
    for (int k0 = 0; k0 < nz; k0 += kBatch) {
      double rb[kBatch], ab[kBatch];
#pragma unroll
      for (int b = 0; b < kBatch; ++b)
        if (k0 + b < nz) {
          const int k = k0 + b;
          rb[b] = r[c + P * k];
          if (!first) ab[b] = ap[c + P * k];
        }
#pragma unroll
      for (int b = 0; b < kBatch; ++b)
        if (k0 + b < nz) {
          const int k = k0 + b;
          double rs = rb[b];
          if (!first) {
            rs = rs - alpha * ab[b];
            r[c + P * k] = rs;
          }
          r_max = fmax(r_max, fabs(rs));
          s.v[0] = dd_add(s.v[0], rs * rs);
          const double w = thomas_forward(coef, nz, k, rs, wq.back(vs));
          wq.push(w);
          if ((k + 2) % kLineChunk < 2) z[c + P * k] = w;  // the two w below a chunk
        }
    }
    SweepQueue zq;
    for (int k0 = (nz - 1) / kLineChunk * kLineChunk; k0 >= 0; k0 -= kLineChunk) {
      double rb[kLineChunk], wb[kLineChunk];
      SweepQueue cq;  // the two w below the chunk
      if (k0 >= 2) cq.push(z[c + P * (k0 - 2)]);
      if (k0 >= 1) cq.push(z[c + P * (k0 - 1)]);
#pragma unroll
      for (int b = 0; b < kLineChunk; ++b)
        if (k0 + b < nz) rb[b] = r[c + P * (k0 + b)];
#pragma unroll
      for (int b = 0; b < kLineChunk; ++b)
        if (k0 + b < nz) {
          wb[b] = thomas_forward(coef, nz, k0 + b, rb[b], cq.back(vs));
          cq.push(wb[b]);
        }
#pragma unroll
      for (int b = kLineChunk - 1; b >= 0; --b)
        if (k0 + b < nz) {
          const int k = k0 + b;
          const double zk = thomas_backward(coef, nz, k, wb[b], zq.back(vs));
          zq.push(zk);
          z[c + P * k] = zk;
          s.v[1] = dd_add(s.v[1], zk * rb[b]);
        }
    }
  }
  block_max_atomic(r_max, r_max_out);
  block_reduce_store(s, groups);
}

// The direction step in two kernels: u <- u + alpha p and p' = z + beta p cell by cell, then A p' and
// <p', A p'> from p' read back with its stencil. Forming p' at each of the stencil's 7 cells instead (one kernel,
// 14 loads a cell) took 219 us a task at 256x256x128 against 7 field passes in 231 us for Alg. 2's apply.
__global__ void line_update_kernel(TileLayout L, const double* __restrict__ st, double* __restrict__ u,
                                   const double* __restrict__ p, const double* __restrict__ z,
                                   double* __restrict__ p_next) {
  if (solver_skips(st, 2)) return;
  const double alpha = st[state::kAlpha], beta = st[state::kBeta];
  const bool first = st[state::kIter] == 0.0, finishing = st[state::kDone] >= 1.0;
  for_each_cell(L.nx, L.ny, [&](int i, int j, int k) {
    const std::ptrdiff_t o = L.at(i, j, k);
    const double po = first ? 0.0 : p[o];
    if (!first) u[o] = u[o] + alpha * po;
    if (!finishing) p_next[o] = first ? z[o] : z[o] + beta * po;
  });
}

// Chunked cell items (fixed_order_sum.hpp: an item sums kCellsPerItem cells 256 cells apart), a block
// per group: one dd tree per cell made the reduction most of a kernel's instructions.
template <int S, bool Periodic>
__global__ void __launch_bounds__(kSumGroup)
    line_direction_dot_kernel(TileLayout L, ColumnCouplings h, const double* __restrict__ coef,
                              const double* __restrict__ st, const double* __restrict__ p_next,
                              double* __restrict__ ap_next, Sums<1>* groups) {
  if (solver_skips(st, 1)) return;
  h = with_strides<S>(h);
  const long item = long(blockIdx.x) * kSumGroup + threadIdx.x, cells = cell_items(L);
  using At = std::conditional_t<Periodic, PeriodicAt, ArrayAt>;
  auto product = [&](int i, int j, int k) {
    const At at(L, p_next, i, j, k);
    const double a = apply_cell_from(L, h, coef, i, j, k, at);
    ap_next[L.at(i, j, k)] = a;
    return at(0, 0, k) * a;
  };
  Sums<1> s{};
  ChunkCells cc(L, item);
  if (chunk_cell(item, kCellsPerItem - 1) < cells) {
    // Every product first (their loads all in flight), then the compensated sum in order.
    double v[kCellsPerItem];
#pragma unroll
    for (int c = 0; c < kCellsPerItem; ++c, cc.next()) v[c] = product(cc.i, cc.j, cc.k);
#pragma unroll
    for (int c = 0; c < kCellsPerItem; ++c) s.v[0] = dd_add(s.v[0], v[c]);
  } else {
    for (int c = 0; c < kCellsPerItem && chunk_cell(item, c) < cells; ++c, cc.next())
      s.v[0] = dd_add(s.v[0], product(cc.i, cc.j, cc.k));
  }
  block_reduce_store(s, groups);
}

// p' on the ghost ring's edges (width h.h; corners are never read): the neighbour tiles' bits, from z's
// exchanged ghost ring and p's (valid from the previous direction step).
__global__ void line_ring_kernel(TileLayout L, int width, const double* __restrict__ st, const double* __restrict__ p,
                                 const double* __restrict__ z, double* __restrict__ p_next) {
  if (solver_skips(st, 1)) return;  // finishing: no new direction
  const double beta = st[state::kBeta];
  const bool first = st[state::kIter] == 0.0;
  const long per_level = 2L * width * (L.nx + L.ny);
  const long n = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= per_level * L.nz) return;
  const int k = int(n / per_level);
  long e = n % per_level;
  int i, j;
  if (e < 2L * width * L.ny) {  // west and east edges
    const int side = int(e / (long(width) * L.ny));
    e %= long(width) * L.ny;
    j = int(e / width);
    const int d = int(e % width);
    i = side == 0 ? -1 - d : L.nx + d;
  } else {  // south and north edges
    e -= 2L * width * L.ny;
    const int side = int(e / (long(width) * L.nx));
    e %= long(width) * L.nx;
    const int d = int(e / L.nx);
    i = int(e % L.nx);
    j = side == 0 ? -1 - d : L.ny + d;
  }
  const std::ptrdiff_t o = L.at(i, j, k);
  p_next[o] = first ? z[o] : z[o] + beta * p[o];
}

}  // namespace

void pcg_line_step_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                        const double* ap, double* r, double* z, void* groups, double* out, cudaStream_t stream) {
  const long n = sum_groups(column_items(L));
  auto* g = static_cast<Sums<2>*>(groups);
  zero_max_cuda(out + kMaxAbsAt, stream);
  with_stride_constant(h, [&](auto S) {
    line_step_kernel<decltype(S)::value><<<unsigned(n), kSumGroup, 0, stream>>>(L, h, coef, st, ap, r, z, g, out + kMaxAbsAt);
  });
  TDC_CUDA_CHECK(cudaGetLastError());
  finish_groups_cuda<2>(g, n, out, stream, st + state::kDone, 1.0);
}

void pcg_line_direction_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                             double* u, const double* p, const double* z, double* p_next, double* ap_next,
                             void* groups, double* out, bool periodic, cudaStream_t stream) {
  const long n = chunk_groups(L);
  auto* g = static_cast<Sums<1>*>(groups);
  launch_gated(gate_key(L, h.ae, h.aw, h.an, h.as, h.h, h.s, h.z_wrap, coef, st, u, p, z, p_next, ap_next, groups, periodic),
               st + state::kDone, 2.0, stream, [&](cudaStream_t capture) {
                 line_update_kernel<<<cell_grid(L.nx, L.ny, L.nz), cell_block(), 0, capture>>>(L, st, u, p, z, p_next);
                 TDC_CUDA_CHECK(cudaGetLastError());
                 if (!periodic) {
                   const long ring = 2L * h.h * (L.nx + L.ny) * L.nz;
                   line_ring_kernel<<<unsigned((ring + 255) / 256), 256, 0, capture>>>(L, h.h, st, p, z, p_next);
                   TDC_CUDA_CHECK(cudaGetLastError());
                 }
                 with_stride_constant(h, [&](auto S) {
                   constexpr int s = decltype(S)::value;
                   if (periodic)
                     line_direction_dot_kernel<s, true><<<unsigned(n), kSumGroup, 0, capture>>>(L, h, coef, st, p_next, ap_next, g);
                   else
                     line_direction_dot_kernel<s, false><<<unsigned(n), kSumGroup, 0, capture>>>(L, h, coef, st, p_next, ap_next, g);
                 });
                 TDC_CUDA_CHECK(cudaGetLastError());
               });
  finish_groups_cuda<1>(g, n, out, stream, st + state::kDone, 1.0);  // finishing: no sum
}

}  // namespace tdc
