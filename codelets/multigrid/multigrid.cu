#include "../common/cell_loop.cuh"
#include "../common/fixed_order_sum.cuh"
#include "../dot_partial/dot_partial_kernel.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "multigrid_kernel.hpp"

namespace tdc {
namespace {

// A thread per cell (common/cell_loop.cuh), as elliptic_apply.
template <int S>
__global__ void restrict_kernel(TileLayout F, TileLayout C, ColumnCouplings h, const double* __restrict__ coef,
                                const double* __restrict__ st, int skip_from, const double* __restrict__ r,
                                const double* __restrict__ z, double* __restrict__ rc) {
  if (solver_skips(st, skip_from)) return;
  h = with_strides<S>(h);
  for_each_cell(C.nx, C.ny,
                [&](int I, int J, int K) { rc[C.at(I, J, K)] = restrict_residual_cell(F, h, coef, r, z, I, J, K); });
}

// The single-tile cycle's restriction: the first sweep formed from r, ghosts at their periodic images.
template <int S>
__global__ void restrict_first_sweep_kernel(TileLayout F, TileLayout C, ColumnCouplings h,
                                            const double* __restrict__ coef, const double* __restrict__ st,
                                            int skip_from, double omega, const double* __restrict__ r,
                                            double* __restrict__ rc) {
  if (solver_skips(st, skip_from)) return;
  h = with_strides<S>(h);
  for_each_cell(C.nx, C.ny, [&](int I, int J, int K) {
    rc[C.at(I, J, K)] = restrict_first_sweep_cell(F, h, coef, omega, r, I, J, K);
  });
}

template <int S>
__global__ void prolong_kernel(TileLayout F, TileLayout C, ColumnCouplings h, const double* __restrict__ st,
                               int skip_from, const double* __restrict__ zc, double* __restrict__ z) {
  if (solver_skips(st, skip_from)) return;
  h = with_strides<S>(h);
  for_each_cell(F.nx, F.ny, [&](int i, int j, int k) {
    z[F.at(i, j, k)] += zc[C.at(coarse_of_fine(i, h.h), coarse_of_fine(j, h.h), coarse_of_fine(k, h.s))];
  });
}

template <int S>
__global__ void jacobi_kernel(TileLayout L, ColumnCouplings h, const double* __restrict__ coef,
                              const double* __restrict__ st, int skip_from, double omega, bool first,
                              const double* __restrict__ r, const double* __restrict__ z_in,
                              double* __restrict__ z_out) {
  if (solver_skips(st, skip_from)) return;
  h = with_strides<S>(h);
  for_each_cell(L.nx, L.ny, [&](int i, int j, int k) {
    const std::ptrdiff_t o = L.at(i, j, k);
    z_out[o] = first ? jacobi_first(coef, L.nz, k, omega, r[o]) : jacobi_cell(L, h, coef, omega, r, z_in, i, j, k);
  });
}

template <int S>
__global__ void prolong_sweep_kernel(TileLayout F, TileLayout C, ColumnCouplings h, const double* __restrict__ coef,
                                     const double* __restrict__ st, int skip_from, double omega,
                                     const double* __restrict__ r, const double* __restrict__ zc,
                                     double* __restrict__ z) {
  if (solver_skips(st, skip_from)) return;
  h = with_strides<S>(h);
  for_each_cell(F.nx, F.ny, [&](int i, int j, int k) {
    z[F.at(i, j, k)] = prolong_sweep_cell(F, C, h, coef, omega, r, zc, i, j, k);
  });
}

// A block per group of dot_partial's chunked items, a thread per item (its kCellsPerItem cells in
// order), then block_tree: the pairs of dot_partial's warp_group, so the same bits.
template <int S>
__global__ void __launch_bounds__(kSumGroup)
    prolong_sweep_dot_kernel(TileLayout F, TileLayout C, ColumnCouplings h, const double* __restrict__ coef,
                             const double* __restrict__ st, int skip_from, double omega, const double* __restrict__ r,
                             const double* __restrict__ zc, double* __restrict__ z, Sums<2>* groups,
                             double* group_max) {
  if (solver_skips(st, skip_from)) return;
  h = with_strides<S>(h);
  const long cells = cell_items(F), item = long(blockIdx.x) * kSumGroup + threadIdx.x;
  Sums<2> sums{};
  double r_max = 0.0;
  ChunkCells at(F, item);
#pragma unroll
  for (int c = 0; c < kCellsPerItem; ++c, at.next())
    if (chunk_cell(item, c) < cells) {
      const std::ptrdiff_t o = F.at(at.i, at.j, at.k);
      const double zv = prolong_sweep_cell(F, C, h, coef, omega, r, zc, at.i, at.j, at.k);
      z[o] = zv;
      dot_partial_add(sums, r_max, r[o], r[o], zv);
    }
  block_reduce_store(sums, groups);
  block_max_store(r_max, group_max + blockIdx.x);
}

}  // namespace

void mg_prolong_sweep_dot_cuda(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* coef,
                               const double* st, int skip_from, double omega, const double* r, const double* zc,
                               double* z, void* groups, double* out, cudaStream_t stream) {
  const long n = chunk_groups(F);
  auto* g = static_cast<Sums<2>*>(groups);
  auto* group_max = reinterpret_cast<double*>(g + n);  // dot_partial's scratch layout
  with_stride_constant(h, [&](auto S) {
    prolong_sweep_dot_kernel<decltype(S)::value>
        <<<unsigned(n), kSumGroup, 0, stream>>>(F, C, h, coef, st, skip_from, omega, r, zc, z, g, group_max);
  });
  TDC_CUDA_CHECK(cudaGetLastError());
  finish_groups_cuda<2>(g, n, out, stream, st + state::kDone, double(skip_from), group_max, out + kMaxAbsAt);
}

void mg_restrict_residual_cuda(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* coef,
                               const double* st, int skip_from, const double* r, const double* z, double* rc,
                               cudaStream_t stream) {
  with_stride_constant(h, [&](auto S) {
    restrict_kernel<decltype(S)::value>
        <<<cell_grid(C.nx, C.ny, C.nz), cell_block(), 0, stream>>>(F, C, h, coef, st, skip_from, r, z, rc);
  });
  TDC_CUDA_CHECK(cudaGetLastError());
}

void mg_prolong_add_cuda(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* st,
                         int skip_from, const double* zc, double* z, cudaStream_t stream) {
  with_stride_constant(h, [&](auto S) {
    prolong_kernel<decltype(S)::value>
        <<<cell_grid(F.nx, F.ny, F.nz), cell_block(), 0, stream>>>(F, C, h, st, skip_from, zc, z);
  });
  TDC_CUDA_CHECK(cudaGetLastError());
}

void mg_jacobi_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st, int skip_from,
                    double omega, bool first, const double* r, const double* z_in, double* z_out, cudaStream_t stream) {
  with_stride_constant(h, [&](auto S) {
    jacobi_kernel<decltype(S)::value><<<cell_grid(L.nx, L.ny, L.nz), cell_block(), 0, stream>>>(
        L, h, coef, st, skip_from, omega, first, r, z_in, z_out);
  });
  TDC_CUDA_CHECK(cudaGetLastError());
}

void mg_restrict_first_sweep_cuda(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h,
                                  const double* coef, const double* st, int skip_from, double omega, const double* r,
                                  double* rc, cudaStream_t stream) {
  with_stride_constant(h, [&](auto S) {
    restrict_first_sweep_kernel<decltype(S)::value>
        <<<cell_grid(C.nx, C.ny, C.nz), cell_block(), 0, stream>>>(F, C, h, coef, st, skip_from, omega, r, rc);
  });
  TDC_CUDA_CHECK(cudaGetLastError());
}

void mg_prolong_sweep_cuda(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* coef,
                           const double* st, int skip_from, double omega, const double* r, const double* zc, double* z,
                           cudaStream_t stream) {
  with_stride_constant(h, [&](auto S) {
    prolong_sweep_kernel<decltype(S)::value>
        <<<cell_grid(F.nx, F.ny, F.nz), cell_block(), 0, stream>>>(F, C, h, coef, st, skip_from, omega, r, zc, z);
  });
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tdc
