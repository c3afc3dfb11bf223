// The line-preconditioned PCG iteration in two kernels' worth of passes, without Alg. 2's q recurrence:
//   pcg_line_step (one item per column):
//       r <- r - alpha A p (A p as the direction step left it);
//       partial <r, r> and max |r| (bottom to top, in the forward Thomas sweep);
//       z = M^{-1} r (vertical Thomas solves); partial <r, z> (top to bottom, in the backward sweep);
//   pcg_line_direction (one pass marching up chunks of levels; items are column chunks, see below):
//       u <- u + alpha p (the step's alpha and p, pending as in Alg. 2), deferred to every second
//       iteration, where both pending terms are added (line_u_update below);
//       p' <- z + beta p (into the other direction buffer); A p' (stored for the next step) from p' as
//       it is formed (the GPU keeps a few levels of it in shared memory), partial <p', A p'>.
// Against Alg. 2-3 of paper 002 this drops the recurrence q = A z + beta q (A p' is applied to p' itself,
// once) and the forward sweep's w, which the backward sweep recomputes from r a chunk of levels at a
// time; only the last two w of each chunk are stored (in z, whose final values overwrite them). 10.5
// field passes per iteration instead of 14 (the step 5, the direction 4 and 7 in turn). A solve cut by
// its iteration budget (not converged, not finishing) leaves u without its last pending terms. (Forming A p from p's stencil inside the step instead of
// storing it saved a pass but lengthened the column kernel's dependent chain: 0.126 against 0.075 ms
// a 128x128 tile.)
// p' is written beside p (other cells still read the old p), so the solver alternates two buffers.
// periodic: the tile is the whole horizontally periodic domain and ghost rings are not read (neighbours
// at their periodic images). Otherwise z's ghost ring must be valid for the direction step, which also
// writes p' on the ghost ring's edges (z + beta p there, the bits the neighbour tile computes), so that
// the next direction step reads p with a valid ghost ring and no exchange of p.
// The first iteration of a solve (state iteration 0) has no direction yet: r and u stay as they are
// and the direction is z itself; p is not read. The u update sits in the cell-parallel kernel because
// the column kernel is latency-bound (one thread per column).
#pragma once
#include "../column_operator/column_operator.hpp"
#include "../common/fixed_order_sum.hpp"
#include "../solver_scalars/solver_scalars_kernel.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

// The backward sweep's chunk: w is recomputed for this many levels at a time.
constexpr int kLineChunk = 16;

// The direction step's sum items: a column's levels in chunks of kDirectionLevels, summed bottom to top.
// A group (a GPU block) holds the items of kDirectionBlockX x kDirectionBlockY columns (item t: column
// (t mod X, t / X) of the block, zero outside the tile); groups go x-block fastest, then y-block, then
// level chunk. The operator's strides must be at most kDirectionReach (1 and 1 for paper 002's operator,
// 2 and 2 for laplc): the GPU keeps p' of levels k - s .. k + s and a ring of h columns in shared memory.
// At 256x256x128 on the H100, 32 levels a chunk: 0.365-0.368 ms per PCG iteration, 16 levels 0.371-0.372
// (and alike for 16, 32 and 64 with one level loaded ahead instead of two).
constexpr int kDirectionLevels = 32, kDirectionBlockX = 32, kDirectionBlockY = 8, kDirectionReach = 2;
static_assert(kDirectionBlockX * kDirectionBlockY == kSumGroup, "a block's items are one group");
struct DirectionGroups {
  int x = 0, y = 0, z = 0;
  TDC_HD long count() const { return long(x) * y * z; }
};
TDC_HD DirectionGroups direction_groups(const TileLayout& L) {
  return {(L.nx + kDirectionBlockX - 1) / kDirectionBlockX, (L.ny + kDirectionBlockY - 1) / kDirectionBlockY,
          (L.nz + kDirectionLevels - 1) / kDirectionLevels};
}
// u's update is deferred to every second iteration (and the finishing one), where the direction step adds
// both pending terms in order, u + alpha_{m-2} p_{m-2} + alpha_{m-1} p_{m-1}: the same roundings as one
// update an iteration, so the same bits, and u is read and written every second iteration only (5.5 field
// passes a direction step on average instead of 6). p_{m-2} is still in the buffer p' is written to (read
// at a cell before p' is written there), alpha_{m-2} in the state (kAlphaPrev). m is the state's
// iteration count when the direction step runs (0 for a solve's first, which has no p and no update).
// After a breakdown (solver_scalars_update, PcgLineApply) the finishing step adds the older term only.
struct LineUpdate {
  bool now = false;     // u is updated in this direction step
  bool two = false;     // ... by the older pending term (p_{m-2}, read from p_next, with alpha_{m-2})
  bool newest = false;  // ... and by alpha_{m-1} p
};
TDC_HD LineUpdate line_u_update(const double* st) {
  const int m = int(st[state::kIter]);
  const bool finishing = st[state::kDone] >= 1.0;
  LineUpdate up;
  const bool due = m > 0 && (finishing || m % 2 == 0);
  up.two = due && m % 2 == 0;
  up.newest = due && st[state::kBreakdown] == 0.0;
  up.now = up.two || up.newest;
  return up;
}
// Throws std::invalid_argument for strides beyond kDirectionReach.
void check_direction_strides(const ColumnCouplings& h);

// ap: A p (interior). out: 2 compensated sums (<r, r>, <r, z>) and max |r| at kMaxAbsAt. Skipped once
// done >= 1.
void pcg_line_step_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                       const double* ap, double* r, double* z, double* out);
// ap_next: A p' (interior). out: 1 compensated sum (<p', A p'>). Only u's update once done == 1 (out
// untouched); skipped once done >= 2.
void pcg_line_direction_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                            double* u, const double* p, const double* z, double* p_next, double* ap_next, double* out,
                            bool periodic);
#if defined(TASKDYCORE_HAVE_CUDA)
// One tile's step or direction step (several tiles: a solver_scalars task follows each). groups: the
// scratch of pcg_line_scratch_bytes.
void pcg_line_step_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                        const double* ap, double* r, double* z, void* groups, double* out, cudaStream_t stream);
void pcg_line_direction_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                             double* u, const double* p, const double* z, double* p_next, double* ap_next, void* groups,
                             double* out, bool periodic, cudaStream_t stream);
// `count` iterations of a single periodic tile (step, then direction, each with its scalars step folded
// in); p alternates between dir[parity] and dir[1 - parity] (A p stays in ap). Recorded once per set of
// arguments into a CUDA graph that loops on the device while the solver state says it runs
// (gated_graph.hpp: launch_gated_loop): one launch for the batch, no launch per iteration, and nothing
// run past the solve's end (a round of two iterations at most). The kernels still test the state: the
// same bits as pcg_line_step_cuda and pcg_line_direction_cuda launched one by one.
void pcg_line_iterations_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, double* st, double* u,
                              double* const dir[2], double* ap, double* r, double* z, void* groups, double* out,
                              const ScalarsArgs& after_step, const ScalarsArgs& after_direction, int parity, int count,
                              cudaStream_t stream);
#endif
// Device scratch both kernels need (group partials; the step's group maxima of |r| after its groups).
std::size_t pcg_line_scratch_bytes(const TileLayout& L);

}  // namespace tdc
