// Krylov solvers for the column operator as task graphs: PCG (interleaved as paper 002 Alg. 1-3, or
// the textbook unfused form) and GCR(k) (EULAG's gcrk), both preconditioned by vertical line solves;
// PCG alternatively by a multigrid V-cycle (graph/multigrid_precon.hpp; laplc only), fused or not, or
// by the exact inverse of a separable operator (graph/spectral_precon.hpp: one iteration).
// An iteration is submitted as tasks with no host synchronisation: step lengths and the stopping
// decision are computed by solver_scalars tasks into the state vector; the host reads a copy of the
// state every `check_every` iterations, one batch behind the submission, to stop submitting (tasks
// submitted past convergence do nothing).
// Every scalar comes from compensated, fixed-order reductions, so the iteration history is the same
// for any tile layout, scheduler and rank count.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "../codelets/column_operator/column_operator.hpp"
#include "runtime/tiled_field.hpp"
#include "multigrid_precon.hpp"
#include "spectral_precon.hpp"

namespace tdc {

// Direct: one application of an exact inverse (the spectral preconditioner), u = A^+ f, with no
// reduction on the step's path: the residual it leaves is checked by tasks that follow it.
enum class KrylovMethod { Pcg, Gcr, Direct };
enum class Preconditioner { Line, Multigrid, Spectral };

struct KrylovSettings {
  KrylovMethod method = KrylovMethod::Pcg;
  bool fused = true;       // PCG: interleaved kernels (Alg. 2-3) or one kernel per operation
  int restart = 3;         // GCR(k): directions kept before a restart, 1..kMaxGcrDirections
  double tol_rel = 1e-10;  // stop when ||r|| <= tol_rel ||r_0||
  double tol_abs = 0.0;    //   or ||r|| <= tol_abs
  double tol_max = 0.0;    //   or max |r| <= tol_max (0: not tested)
  int max_iter = 500;
  int check_every = 10;  // iterations submitted between two host checks of the state (not used by a
                         // single tile's line-form PCG, which stops on the device)
  Preconditioner preconditioner = Preconditioner::Line;  // Multigrid, Spectral: PCG only (fused or not)
  MultigridSettings multigrid;
};

struct SolveResult {
  int iterations = 0;
  bool converged = false;
  std::vector<double> residual_history;  // ||r|| after 0, 1, ..., iterations
  double seconds = 0.0;
};

class EllipticSolver {
 public:
  // `level_coefficients`: kLevelVectors * nz doubles (column_operator.hpp); the same on every rank.
  // `hierarchy`: the multigrid levels (level 0 = this operator), needed when s.preconditioner is Multigrid.
  EllipticSolver(const Decomposition& d, int rank, const ColumnCouplings& h,
                 const std::vector<double>& level_coefficients, const KrylovSettings& s,
                 const std::vector<OperatorLevel>& hierarchy = {});
  ~EllipticSolver();
  EllipticSolver(const EllipticSolver&) = delete;
  EllipticSolver& operator=(const EllipticSolver&) = delete;

  // Solves A u = f with u as the initial guess; u's interior holds the solution afterwards (its halo
  // is stale). Collective over ranks; returns the same result on every rank.
  SolveResult solve(const TiledField& u, const TiledField& f);

  // The same as tasks only, for a step graph: a solve of at most `iterations` iterations is submitted
  // and nothing waits; read_state() later tells how it went (it waits for the solve).
  // `ghosts_current`: u's ghost ring already holds its neighbours' values (a step graph exchanges p's
  // halo after every solve), so the solve starts without an exchange.
  void submit_solve(const TiledField& u, const TiledField& f, int iterations, bool ghosts_current = false);
  // Collective: the latest solve's result (waits for it).
  SolveResult read_state();
  // After u's halo exchange that follows submit_solve: the direct solve's check (max |f| and
  // max |f - A u| per tile, recorded in the state in place of ||r_0|| and ||r||, one iteration);
  // nothing for the iterative methods, whose state already holds their stopping test. Off the step's
  // path: nothing of the step reads its output.
  void submit_check(const TiledField& u, const TiledField& f);
  // A copy of the state as a task (for diagnostics read later), into a rank-0 vector of
  // state_size() doubles, sent on to every rank as soon as it is written (`to_every_rank`: else it
  // stays on rank 0); read_state_copy() or result_of() reads such a copy.
  void submit_state_copy(starpu_data_handle_t dst, int priority, bool to_every_rank = true) const;
  // The result a state (or a copy of it) in host memory holds.
  SolveResult result_of(const double* state) const;
  // A copy's values on rank 0, which holds it (waits for it; no MPI).
  std::vector<double> state_copy_here(starpu_data_handle_t copy) const;
  int state_size() const { return state_size_; }
  // Tasks one iteration submits per tile, about (for submission windows).
  int tasks_per_iteration() const {
    if (direct()) return 3 + spectral_->tasks_per_tile();  // the whole solve and its check
    if (mg_) return (s_.fused ? 7 : 10) + mg_->tasks_per_tile();
    if (spectral_) return (s_.fused ? 7 : 10) + spectral_->tasks_per_tile();
    return s_.fused ? 6 : 10;
  }
  bool multigrid() const { return mg_ != nullptr; }
  bool spectral() const { return spectral_ != nullptr; }
  bool direct() const { return s_.method == KrylovMethod::Direct; }
  // The max-norm tolerance of the solves submitted from now on (KrylovSettings::tol_max).
  double max_norm_tolerance() const { return s_.tol_max; }
  void set_max_norm_tolerance(double tol) { s_.tol_max = tol; }
  // The state vector (read by codelets that follow the solver's skip protocol).
  starpu_data_handle_t state_handle() const { return state_->handle(); }
  // Collective: the result held in such a copy (or the state itself), read on every rank (waits for it).
  SolveResult read_state_copy(starpu_data_handle_t copy) const;

  // r = f - A u (one pass; u's halo is exchanged first), leaving <r, r> and max |r| in the solver's
  // partials. For GCR's start, tests and the final residual check.
  void residual(const TiledField& u, const TiledField& f, const TiledField& r, bool ghosts_current = false);

 private:
  void submit_reset();  // a new solve's state: zeros, the tolerances and the iteration limit
  void submit_start(const TiledField& u, const TiledField& f, bool ghosts_current = false);
  void submit_iteration(const TiledField& u);
  // `count` iterations: one task for them all in the line form on a single tile, else one by one.
  void submit_iterations(const TiledField& u, int count);
  void zero(const TiledField& y, const TiledField& any_finite);
  ScalarsArgs scalars_args(int op, int sums, const std::vector<int>& slots = {}, int new_slot = 0) const;
  void submit_scalars(int op, int sums, const std::vector<int>& slots = {}, int new_slot = 0);
  // z = M^{-1} r (line, multigrid or spectral); skipped once the state's done flag reaches skip_from.
  // The spectral inverse is exact, so only a solve's first application is spectral; any later one (an
  // iteration at round-off, or one submitted ahead and skipped) is the line preconditioner's, which
  // stays on each tile: on several devices a skipped spectral solve still moved its transposes'
  // pieces (StarPU moves a task's data before the task can tell it has nothing to do), 80 ms a step
  // over 2 ranks at 256x512x256. Every layout makes the same choice, so the bits stay layout-free.
  void precondition(const TiledField& r, const TiledField& z, int skip_from);
  bool spectral_now() const { return spectral_ && precon_calls_ == 0; }
  void pcg_fused_iteration(const TiledField& u);
  void pcg_line_iteration(const TiledField& u);
  void pcg_unfused_iteration(const TiledField& u);
  // PCG, fused, with the line preconditioner: the two-task iteration of codelets/pcg_line.
  // A single tile on one rank (the scalars steps can run inside the tasks; the tile is the whole
  // horizontally periodic domain).
  bool one_tile() const { return d_.tiles() == 1 && d_.ranks() == 1; }
  bool line_form() const { return s_.method == KrylovMethod::Pcg && s_.fused && !mg_ && !spectral_; }
  void gcr_iteration(const TiledField& x);
  // u = A^+ f: the spectral stages from f straight into u, reading running_ (never written), so that
  // nothing waits for the previous solve's check. u is not read: A^+ is exact, so no first guess or
  // residual correction is needed, and u has no component in A's null space (the constants per
  // lattice, which the gradient does not see).
  void submit_direct(const TiledField& u, const TiledField& f);

  const Decomposition& d_;
  int rank_;
  EllipticTaskArgs args_;
  KrylovSettings s_;
  int state_size_;
  std::unique_ptr<RankZeroVector> coef_, state_;     // the level coefficients and the solver state, on rank 0
  std::unique_ptr<RankZeroVector> state_copies_[2];  // solve(): the state after a batch, read while the next runs
  std::unique_ptr<TileStrips> strips_;
  std::unique_ptr<TileVectors> partials_;
  std::unique_ptr<RankZeroVector> running_;        // direct: a state that always says running
  std::unique_ptr<ScratchBuffer> scratch_;
  std::unique_ptr<TiledField> r_, z_, p_, q_;
  std::unique_ptr<TiledField> ap_;  // line form: A p, from the direction step to the next step
  std::unique_ptr<MultigridPreconditioner> mg_;
  std::unique_ptr<SpectralPreconditioner> spectral_;
  // The next preconditioner step is one task on the single tile (the multigrid or spectral one-task forms).
  bool one_task_precon() const { return (mg_ && mg_->one_task()) || (spectral_now() && spectral_->one_task()); }
  int precon_calls_ = 0;                              // preconditioner applications submitted in this solve
  std::vector<std::unique_ptr<TiledField>> gp_, gq_;  // GCR direction slots
  std::vector<int> basis_;                            // GCR: slots kept since the last restart
  int last_slot_ = 0;
  bool gcr_first_ = true;
  int line_iteration_ =
      0;  // line form: iterations submitted in this solve (which buffer holds p)  // GCR: the next iteration is a solve's first (beta = 0: no update to submit)
};

const char* to_string(KrylovMethod m);
const char* to_string(Preconditioner p);

}  // namespace tdc
