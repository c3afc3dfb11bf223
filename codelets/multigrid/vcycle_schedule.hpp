// The order of the operations of one V(1,1)-cycle, written once for the two ways it runs: as tasks
// (graph/multigrid_precon.cpp, a task per tile and operation, halo exchanges between tiles) and as
// one task on a single tile (multigrid_vcycle.hpp, the kernels back to back on one stream). Both
// call the same kernels in this order, so they give the same bits.
#pragma once
#include <algorithm>

namespace tdc {

// The three fields of a level: its right-hand side (level 0: the residual PCG passes in), the
// smoothed iterate, and the level's result (level 0: PCG's z).
enum class MgField { Rhs, Smoothed, Result };

// The coarsest level: sweeps from zero, alternating between Smoothed and Result so that the last
// lands in Result.
template <class Ops>
void coarsest_sweeps(const Ops& ops, int last, int coarse_sweeps) {
  const int sweeps = std::max(1, coarse_sweeps);
  const MgField buf[2] = {MgField::Smoothed, MgField::Result};
  int cur = sweeps % 2;
  ops.jacobi_first(last, buf[cur]);
  for (int n = 1; n < sweeps; ++n, cur ^= 1) {
    ops.halo(last, buf[cur]);
    ops.jacobi(last, buf[cur], buf[cur ^ 1]);
  }
}

// `ops` provides: jacobi_first(l, out), jacobi(l, in, out), halo(l, field), restrict_residual(l)
// (Rhs of l + 1 from Rhs and Smoothed of l) and prolong_add(l) (Smoothed of l += P Result of l + 1).
// The cycle down to level `last`, where bottom(last) makes its Result from its Rhs, and back up.
template <class Ops, class Bottom>
void vcycle_around(const Ops& ops, int last, Bottom&& bottom) {
  // Down: one sweep from zero, then the restricted residual.
  for (int l = 0; l < last; ++l) {
    ops.jacobi_first(l, MgField::Smoothed);
    ops.halo(l, MgField::Smoothed);
    ops.restrict_residual(l);
  }
  bottom(last);
  // Up: add the coarse correction, then the same sweep as on the way down.
  for (int l = last - 1; l >= 0; --l) {
    ops.prolong_add(l);
    ops.halo(l, MgField::Smoothed);
    ops.jacobi(l, MgField::Smoothed, MgField::Result);
  }
}
// The whole cycle: from level 0 down to the coarsest, its sweeps, and back. From any level down it is
// the cycle of the levels below (bottom of vcycle_around may run them as one cycle elsewhere).
template <class Ops>
void vcycle_schedule(const Ops& ops, int levels, int coarse_sweeps) {
  vcycle_around(ops, levels - 1, [&](int last) { coarsest_sweeps(ops, last, coarse_sweeps); });
}

// The same cycle on a single tile with each level's passes fused (multigrid_kernel.hpp,
// periodic_image): restrict_first_sweep(l) does jacobi_first, halo and restrict_residual of level l
// without storing the sweep (it is w r, formed where it is read); prolong_sweep(l) does prolong_add,
// halo and the last jacobi, forming the first sweep again. Same operations, same bits; 2 launches per
// level instead of 6, and the finest level is read about 3 times instead of 9.
template <class Ops>
void vcycle_schedule_fused(const Ops& ops, int levels, int coarse_sweeps) {
  const int last = levels - 1;
  for (int l = 0; l < last; ++l) ops.restrict_first_sweep(l);
  coarsest_sweeps(ops, last, coarse_sweeps);
  for (int l = last - 1; l >= 0; --l) ops.prolong_sweep(l);
}

}  // namespace tdc
