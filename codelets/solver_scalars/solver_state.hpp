// The Krylov solvers' scalars live in one small StarPU vector ("state") that tasks read and the
// solver_scalars codelet updates: alpha, beta and the convergence decision are computed where the
// partial sums are, so an iteration needs no host synchronisation. Kernels read `done` and skip their
// work once the solver has finished, so the host may submit iterations ahead and check rarely.
#pragma once
#include "../common/tile_layout.hpp"
#include "../common/work_skipped.hpp"

namespace tdc {

constexpr int kMaxGcrDirections = 5;  // GCR(k), k <= 5: a direction task takes 6 + 2k buffers (StarPU limit 16)
constexpr int kMaxSums = 6;           // compensated sums per tile partial (2 doubles each)
// The kernels that produce <r, r> (and dot_partial: <x, .>) also leave the tile's max |r| (max |x|)
// at partials[kMaxAbsAt] (the last sum's slot, never a sum of theirs): a maximum is exact in any
// order, so the max-norm stopping test is as reproducible as the sums.
constexpr int kMaxAbsAt = 2 * (kMaxSums - 1);
// A single tile's spectral preconditioner step leaves at partials[kSolveSkippedAt] (a sum slot no
// kernel of the step uses) whether it skipped its solve: r already met the stopping test, so z is not
// needed (the step's scalars stop the solve and the last apply reads only p).
constexpr int kSolveSkippedAt = 2 * (kMaxSums - 2);

namespace state {
enum : int {
  kAlpha = 0,  // PCG step length
  kBeta,       // PCG: new direction weight; GCR: step length along the newest direction
  kKappa,      // PCG: <r, z> of the previous iteration
  kRes0,       // ||r_0||
  kRes,        // ||r|| of the latest check
  kDone,     // 0 running, 1 finishing (fused PCG: the last u update, or the line form's last two, pending), 2 finished
  kIter,     // iterations completed
  kTolRel,   // stop when ||r|| <= tol_rel ||r_0||
  kTolAbs,   //   or ||r|| <= tol_abs
  kMaxIter,  //   or after max_iter iterations (not converged)
  kConverged,      // 1 when a tolerance was met
  kTolMax,         //   or max |r| <= tol_max (when > 0: the dycore's bound on max |D v|)
  kResMax,         // max |r| of the latest check
  kAlphaPrev,      // PCG: the step length before kAlpha (the line form defers u's update by an iteration)
  kBreakdown,      // PCG line form: the last direction broke down (<p, A p> <= 0); counted in kIter until done
  kGcrQQ = 16,     // <q_s, q_s> per direction slot (kMaxGcrDirections + 1 slots)
  kGcrAlpha = 24,  // orthogonalisation weights of the latest step, per active direction
  kHistory = 32,   // ||r|| after each iteration: kHistory + iteration, iteration 0 = initial residual
};
}  // namespace state

inline int state_doubles(int max_iter) { return state::kHistory + max_iter + 1; }

// Kernels call this first: true when their work is no longer needed.
TDC_HD bool solver_skips(const double* st, int skip_from) {
  const bool skip = st[state::kDone] >= double(skip_from);
#if !defined(__CUDA_ARCH__)
  if (skip) work_skipped() = true;
#endif
  return skip;
}

}  // namespace tdc
