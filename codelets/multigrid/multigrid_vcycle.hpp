// A whole V-cycle on a single tile that is its own periodic neighbour (one tile per rank-grid, the
// usual single-GPU layout): the multigrid kernels and halo_self copies back to back, so the cycle is
// one task instead of ~8 per level (the task count, not bandwidth, bounded the cycle on an H100).
// Same kernels in the same order as the task graph (vcycle_schedule.hpp): the same bits. No StarPU.
#pragma once
#include <cstddef>
#include <vector>

#include "multigrid_kernel.hpp"

namespace tdc {

constexpr int kMaxMultigridLevels = 12;

// A level's tile and operator, and where its arrays are: `coef` in the concatenated coefficient
// vector, the others in the cycle's scratch (level 0's Rhs and Result are PCG's r and z instead).
struct VcycleLevel {
  TileLayout L;
  ColumnCouplings h;
  std::ptrdiff_t coef = 0, rhs = 0, smoothed = 0, result = 0;
};
struct VcyclePlan {
  int levels = 0, coarse_sweeps = 2, skip_from = 2;
  double omega = 0.9;
  VcycleLevel level[kMaxMultigridLevels];
  std::size_t scratch_doubles = 0;
};

// Lays the levels out: coefficient vectors of coef_sizes[l] doubles one after another, and the scratch.
VcyclePlan make_vcycle_plan(const std::vector<TileLayout>& tiles, const std::vector<ColumnCouplings>& h,
                            const std::vector<std::size_t>& coef_sizes, int coarse_sweeps, double omega);

// z = M^{-1} r by one V(1,1)-cycle (r read in the interior, z written there); returns at once when
// the solver state `st` says done >= plan.skip_from.
void mg_vcycle_cpu(const VcyclePlan& plan, const double* coef, const double* st, const double* r, double* z,
                   double* scratch);
// The multigrid form of pcg_fused_precon (paper 002, Alg. 3 with the V-cycle as M): r <- r - alpha q,
// z = M^{-1} r, and dot_partial's partials of <r, r>, <r, z> and max |r| into `out`. On the CPU
// vector_update, the cycle and dot_partial back to back; on the GPU (the fused cycle, levels >= 2) the
// sums ride in the finest level's last sweep, saving a pass over the finest level and a launch. The
// same bits as the three tasks.
void mg_pcg_precon_cpu(const VcyclePlan& plan, const double* coef, const double* st, const double* q, double* r,
                       double* z, double* scratch, double* out);
#if defined(TASKDYCORE_HAVE_CUDA)
// groups: dot_partial's device scratch (dot_partial_scratch_bytes of the finest level).
void mg_pcg_precon_cuda(const VcyclePlan& plan, const double* coef, const double* st, const double* q, double* r,
                        double* z, double* scratch, void* groups, double* out, cudaStream_t stream);
// The same bits, with the fused passes of vcycle_schedule_fused: the tile must hold the whole,
// horizontally periodic domain (ghost cells are read at their periodic images).
void mg_vcycle_cuda(const VcyclePlan& plan, const double* coef, const double* st, const double* r, double* z,
                    double* scratch, cudaStream_t stream);
#endif

}  // namespace tdc
