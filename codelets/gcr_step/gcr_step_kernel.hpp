// The kernels of one GCR(k) iteration (EULAG's gcrk, paper 000 Fig. 9: precon, laplc, reductions),
// each fusing the vector updates around it:
//   gcr_precon:    x <- x + beta p_last; r <- r - beta q_last; e = M^{-1} r;  partial <r, r>
//   gcr_apply:     Ae = A e (written to the new direction's q);             partials <Ae, q_j>
//   gcr_direction: p_new = e + sum_j alpha_j p_j; q_new = Ae + sum_j alpha_j q_j;
//                                                                partials <q_new, q_new>, <r, q_new>
// beta and alpha_j come from the solver state; j runs over the m <= kMaxGcrDirections - 1 directions
// kept since the last restart, in the order the host passes them.
#pragma once
#include "../column_operator/column_operator.hpp"
#include "../common/fixed_order_sum.hpp"
#include "../solver_scalars/solver_state.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

constexpr int kMaxGcrOld = kMaxGcrDirections - 1;

// The directions kept since the last restart.
struct GcrBasis {
  int m = 0;
  const double* p[kMaxGcrOld] = {};
  const double* q[kMaxGcrOld] = {};
};

// The per-cell work of gcr_apply and gcr_direction, shared by the CPU loops and the CUDA threads.
// M >= 0: basis.m known at compile time (the CUDA kernels), so the sums stay in registers.
template <int M = -1>
TDC_HD Sums<kMaxGcrOld> gcr_apply_cell(const TileLayout& L, const ColumnCouplings& h, const double* coef,
                                       const double* e, double* ae, const GcrBasis& basis, int i, int j, int k) {
  const std::ptrdiff_t o = L.at(i, j, k);
  const double a = apply_cell(L, h, coef, e, i, j, k);
  ae[o] = a;
  Sums<kMaxGcrOld> s{};
  const int m = M >= 0 ? M : basis.m;
#pragma unroll
  for (int n = 0; n < (M >= 0 ? M : kMaxGcrOld); ++n)
    if (n < m) s.v[n] = dd_add(s.v[n], a * basis.q[n][o]);
  return s;
}
template <int M = -1>
TDC_HD Sums<2> gcr_direction_cell(const TileLayout& L, const double* st, const double* e, const double* r,
                                  double* p_new, double* q_new, const GcrBasis& basis, int i, int j, int k) {
  const std::ptrdiff_t o = L.at(i, j, k);
  double p = e[o], q = q_new[o];
  const int m = M >= 0 ? M : basis.m;
#pragma unroll
  for (int n = 0; n < (M >= 0 ? M : kMaxGcrOld); ++n) {
    if (n >= m) break;
    const double a = st[state::kGcrAlpha + n];
    p = p + a * basis.p[n][o];
    q = q + a * basis.q[n][o];
  }
  p_new[o] = p;
  q_new[o] = q;
  Sums<2> s{};
  s.v[0] = dd_add(s.v[0], q * q);
  s.v[1] = dd_add(s.v[1], r[o] * q);
  return s;
}

// out: 1 sum (<r, r>).
// s: the operator's vertical stride.
void gcr_precon_cpu(const TileLayout& L, const double* coef, const double* st, int s, double* x, double* r,
                    const double* p_last, const double* q_last, double* e, double* out);
// out: kMaxGcrOld sums (<Ae, q_j>, zero beyond m).
void gcr_apply_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st, const double* e,
                   double* ae, const GcrBasis& basis, double* out);
// out: 2 sums (<q_new, q_new>, <r, q_new>); q_new holds A e on entry.
void gcr_direction_cpu(const TileLayout& L, const double* st, const double* e, const double* r, double* p_new,
                       double* q_new, const GcrBasis& basis, double* out);
#if defined(TASKDYCORE_HAVE_CUDA)
void gcr_precon_cuda(const TileLayout& L, const double* coef, const double* st, int s, double* x, double* r,
                     const double* p_last, const double* q_last, double* e, void* groups, double* out,
                     cudaStream_t stream);
void gcr_apply_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                    const double* e, double* ae, const GcrBasis& basis, void* groups, double* out, cudaStream_t stream);
void gcr_direction_cuda(const TileLayout& L, const double* st, const double* e, const double* r, double* p_new,
                        double* q_new, const GcrBasis& basis, void* groups, double* out, cudaStream_t stream);
#endif
std::size_t gcr_scratch_bytes(const TileLayout& L);

}  // namespace tdc
