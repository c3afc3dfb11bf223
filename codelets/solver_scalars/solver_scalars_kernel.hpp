// solver_scalars: combines the tiles' compensated partial sums in tile order and advances the Krylov
// solver's scalars in the state vector (step lengths, residual history, the stopping decision).
// The same function runs on a CPU worker or as a one-thread CUDA kernel, so the state can stay on
// the GPU that runs the iteration.
#pragma once
#include "../common/double_double.hpp"
#include "solver_state.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

enum class ScalarOp : int {
  PcgFusedPrecon,  // sums <r,r>, <r,z>: record ||r||, decide, beta = kappa / kappa_old
  PcgFusedApply,   // sum <p,q>: alpha = kappa / sigma, iteration done
  PcgInit,         // unfused, sums <r,r>, <r,z>: record ||r_0||, kappa
  PcgSigma,        // unfused, sum <p,q>: alpha
  PcgResidual,     // unfused, sums <r,r>, <r,z>: iteration done, record, decide, beta
  GcrResidual,     // sum <r,r>: record, decide
  GcrAlphas,       // sums <Ae, q_j>: alpha_j = -<Ae, q_j> / <q_j, q_j>
  GcrBeta,         // sums <q,q>, <r,q> of the new direction: beta, iteration done
  Reset,           // a new solve: zeros, tolerances and the iteration limit (reads no partials)
  PcgLineApply,    // PcgFusedApply for the line form (codelets/pcg_line: u's update deferred): a breakdown
                   // finishes through one more direction step, which adds the older pending term only
  Direct,          // the direct solve's check from one residual_max partial per tile: max |f| (the start's
                   // residual, the solve starting from 0) and max |f - A u|, in place of both norms; one
                   // iteration, done
};

constexpr int kMaxCombineTiles = 256;  // partials per task (the CUDA kernel takes the pointers by value)

struct ScalarsArgs {
  ScalarOp op = ScalarOp::PcgFusedPrecon;
  int tiles = 0;
  int sums = 0;                       // compensated sums per tile partial
  int slots[kMaxGcrDirections] = {};  // GcrAlphas: the basis slots, in basis order
  int new_slot = 0;                   // GcrBeta: the slot of the new direction
  double tol_rel = 0, tol_abs = 0;    // Reset
  double tol_max = 0;                 // Reset (0: no max-norm test)
  int max_iter = 0;                   // Reset
  int state_size = 0;                 // Reset: doubles in the state
};

// Partial vectors the op reads: one per tile, none for Reset.
TDC_HD int partial_count(const ScalarsArgs& a) { return a.op == ScalarOp::Reset ? 0 : a.tiles; }

void solver_scalars_cpu(const ScalarsArgs& a, double* st, const double* const* partials);
#if defined(TASKDYCORE_HAVE_CUDA)
void solver_scalars_cuda(const ScalarsArgs& a, double* st, const double* const* partials, cudaStream_t stream);
#endif

// The scalars step folded into the task that produced the only tile's partial (a single tile on one
// rank: a StarPU task fewer per half-iteration, ~20 us each on a GPU). `then.tiles == 0`: nothing to do.
// The same function as the solver_scalars codelet, so the same bits.
inline void fold_scalars_cpu(const ScalarsArgs& then, double* st, const double* partial) {
  if (then.tiles == 0) return;
  const double* p[1] = {partial};
  solver_scalars_cpu(then, st, p);
}
#if defined(TASKDYCORE_HAVE_CUDA)
inline void fold_scalars_cuda(const ScalarsArgs& then, double* st, const double* partial, cudaStream_t stream) {
  if (then.tiles == 0) return;
  const double* p[1] = {partial};
  solver_scalars_cuda(then, st, p, stream);
}
#endif

}  // namespace tdc
