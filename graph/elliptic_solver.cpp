#include "elliptic_solver.hpp"

#include <starpu_mpi.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "../codelets/common/codelet.hpp"
#include "../codelets/dot_partial/dot_partial.hpp"
#include "../codelets/elliptic_apply/elliptic_apply.hpp"
#include "../codelets/gcr_step/gcr_step.hpp"
#include "../codelets/gcr_step/gcr_step_kernel.hpp"
#include "../codelets/line_precon/line_precon.hpp"
#include "../codelets/pcg_fused/pcg_fused.hpp"
#include "../codelets/pcg_fused/pcg_fused_kernel.hpp"
#include "../codelets/pcg_line/pcg_line.hpp"
#include "../codelets/pcg_line/pcg_line_kernel.hpp"
#include "../codelets/residual_dot/residual_dot.hpp"
#include "../codelets/residual_max/residual_max.hpp"
#include "../codelets/solver_scalars/solver_scalars.hpp"
#include "../codelets/vector_update/vector_update.hpp"
#include "../codelets/snapshot_copy/snapshot_copy.hpp"
#include "halo_exchange.hpp"

namespace tdc {
namespace {

std::vector<starpu_data_handle_t> tile_handles(const Decomposition& d, const TileVectors& v) {
  std::vector<starpu_data_handle_t> h(d.tiles());
  for (int t = 0; t < d.tiles(); ++t) h[t] = v.handle(t);
  return h;
}

}  // namespace

const char* to_string(KrylovMethod m) {
  return m == KrylovMethod::Pcg ? "pcg" : m == KrylovMethod::Gcr ? "gcr" : "direct";
}
const char* to_string(Preconditioner p) {
  return p == Preconditioner::Line ? "line" : p == Preconditioner::Multigrid ? "multigrid" : "spectral";
}

EllipticSolver::EllipticSolver(const Decomposition& d, int rank, const ColumnCouplings& h,
                               const std::vector<double>& level_coefficients, const KrylovSettings& s,
                               const std::vector<OperatorLevel>& hierarchy)
    : d_(d), rank_(rank), s_(s), state_size_(state_doubles(s.max_iter)) {
  const TileLayout& L = d.layout();
  if (level_coefficients.size() != std::size_t(kLevelVectors) * L.nz)
    throw std::invalid_argument("elliptic solver: level coefficients do not match nz");
  if (L.halo < 1) throw std::invalid_argument("elliptic solver: tiles need a halo of at least 1");
  if (d.tiles() > kMaxCombineTiles) throw std::invalid_argument("elliptic solver: more tiles than kMaxCombineTiles");
  if (s.method == KrylovMethod::Gcr && (s.restart < 1 || s.restart > kMaxGcrDirections))
    throw std::invalid_argument("elliptic solver: GCR restart length out of range");
  if (s.method == KrylovMethod::Direct && s.preconditioner != Preconditioner::Spectral)
    throw std::invalid_argument("elliptic solver: the direct solve needs the spectral preconditioner (an exact inverse)");
  if (s.preconditioner == Preconditioner::Multigrid && (s.method != KrylovMethod::Pcg || hierarchy.empty()))
    throw std::invalid_argument("elliptic solver: the multigrid preconditioner needs PCG and a level hierarchy");
  args_.L = L;
  args_.h = h;
  args_.skip_from = 2;
  coef_ = std::make_unique<RankZeroVector>(rank, level_coefficients);
  state_ = std::make_unique<RankZeroVector>(rank, state_size_);
  for (auto& c : state_copies_) c = std::make_unique<RankZeroVector>(rank, state_size_);
  strips_ = std::make_unique<TileStrips>(d, rank);
  partials_ = std::make_unique<TileVectors>(d, rank, 2 * kMaxSums);
  scratch_ = std::make_unique<ScratchBuffer>(std::max(
      {dot_partial_scratch_bytes(L), pcg_fused_scratch_bytes(L), pcg_line_scratch_bytes(L), gcr_scratch_bytes(L)}));
  if (s.preconditioner == Preconditioner::Multigrid)
    mg_ = std::make_unique<MultigridPreconditioner>(d, rank, hierarchy, s.multigrid);
  if (s.preconditioner == Preconditioner::Spectral)
    spectral_ = std::make_unique<SpectralPreconditioner>(d, rank, h, level_coefficients);
  if (s.method == KrylovMethod::Direct) {
    running_ = std::make_unique<RankZeroVector>(rank, state_size_);
    return;  // no residual or direction fields
  }
  r_ = std::make_unique<TiledField>("solver_r", d, rank);
  z_ = std::make_unique<TiledField>("solver_z", d, rank);
  if (s.method == KrylovMethod::Pcg) {
    p_ = std::make_unique<TiledField>("solver_p", d, rank);
    q_ = std::make_unique<TiledField>("solver_q", d, rank);
    if (line_form()) ap_ = std::make_unique<TiledField>("solver_ap", d, rank);
  } else {
    for (int k = 0; k < s.restart; ++k) {
      gp_.push_back(std::make_unique<TiledField>("solver_p" + std::to_string(k), d, rank));
      gq_.push_back(std::make_unique<TiledField>("solver_q" + std::to_string(k), d, rank));
    }
  }
}

EllipticSolver::~EllipticSolver() { starpu_mpi_wait_for_all(MPI_COMM_WORLD); }

ScalarsArgs EllipticSolver::scalars_args(int op, int sums, const std::vector<int>& slots, int new_slot) const {
  ScalarsArgs a;
  a.op = static_cast<ScalarOp>(op);
  a.tiles = d_.tiles();
  a.sums = sums;
  for (std::size_t n = 0; n < slots.size(); ++n) a.slots[n] = slots[n];
  a.new_slot = new_slot;
  return a;
}

void EllipticSolver::submit_scalars(int op, int sums, const std::vector<int>& slots, int new_slot) {
  insert_solver_scalars(scalars_args(op, sums, slots, new_slot), state_->handle(), tile_handles(d_, *partials_));
}

void EllipticSolver::submit_reset() {
  ScalarsArgs reset;
  reset.op = ScalarOp::Reset;
  reset.tol_rel = s_.tol_rel;
  reset.tol_abs = s_.tol_abs;
  reset.tol_max = s_.tol_max;
  reset.max_iter = s_.max_iter;
  reset.state_size = state_size_;
  insert_solver_scalars(reset, state_->handle(), {});
}

void EllipticSolver::zero(const TiledField& y, const TiledField& any_finite) {
  VectorUpdateArgs a;
  a.L = d_.layout();
  a.skip_from = 3;  // always
  a.sa = 0.0;
  a.sb = 0.0;
  for (int t = 0; t < d_.tiles(); ++t)
    insert_vector_update(a, state_->handle(), any_finite.handle(t), y.handle(t), kPrioBody);
}

void EllipticSolver::residual(const TiledField& u, const TiledField& f, const TiledField& r, bool ghosts_current) {
  // One pass per tile, which also leaves <r, r> and max |r| in the partials (GCR's first test reads them).
  if (!ghosts_current) submit_halo_exchange(d_, u, *strips_);
  EllipticTaskArgs a = args_;
  a.skip_from = 3;  // always
  for (int t = 0; t < d_.tiles(); ++t)
    insert_elliptic_residual_dot(a, coef_->handle(), state_->handle(), u.handle(t), f.handle(t), r.handle(t),
                                 scratch_->handle(), partials_->handle(t), kPrioBody);
}

// Brings the state to every rank and reads it there (all ranks see the same values).
SolveResult EllipticSolver::read_state() { return read_state_copy(state_->handle()); }

SolveResult EllipticSolver::read_state_copy(starpu_data_handle_t copy) const {
  starpu_mpi_get_data_on_all_nodes_detached(MPI_COMM_WORLD, copy);
  starpu_data_acquire(copy, STARPU_R);
  const SolveResult res = result_of(static_cast<const double*>(starpu_data_handle_to_pointer(copy, STARPU_MAIN_RAM)));
  starpu_data_release(copy);
  return res;
}

std::vector<double> EllipticSolver::state_copy_here(starpu_data_handle_t copy) const {
  starpu_data_acquire(copy, STARPU_R);
  const auto* st = static_cast<const double*>(starpu_data_handle_to_pointer(copy, STARPU_MAIN_RAM));
  std::vector<double> values(st, st + state_size_);
  starpu_data_release(copy);
  return values;
}

SolveResult EllipticSolver::result_of(const double* st) const {
  SolveResult res;
  res.iterations = int(st[state::kIter]);
  res.converged = st[state::kConverged] != 0.0;
  if (st[state::kDone] < 2.0) res.iterations = -1;  // still running
  const int recorded = std::min<int>(int(st[state::kIter]) + 1, s_.max_iter + 1);
  res.residual_history.assign(st + state::kHistory, st + state::kHistory + recorded);
  return res;
}

void EllipticSolver::submit_state_copy(starpu_data_handle_t dst, int priority, bool to_every_rank) const {
  insert_snapshot_copy(state_->handle(), dst, priority);
  // Every rank gets the copy as soon as it is written, so that reading it steps later waits for no
  // round trip to its owner (read_state_copy's own request then finds it cached).
  if (to_every_rank) starpu_mpi_get_data_on_all_nodes_detached(MPI_COMM_WORLD, dst);
}

void EllipticSolver::precondition(const TiledField& r, const TiledField& z, int skip_from) {
  if (mg_) {
    mg_->submit(state_->handle(), skip_from, r, z);
    return;
  }
  if (spectral_now()) {
    ++precon_calls_;
    spectral_->submit(state_->handle(), skip_from, r, z);
    return;
  }
  ++precon_calls_;
  EllipticTaskArgs a = args_;
  a.skip_from = skip_from;
  for (int t = 0; t < d_.tiles(); ++t)
    insert_line_precon(a, coef_->handle(), state_->handle(), r.handle(t), z.handle(t), kPrioBody);
}

void EllipticSolver::pcg_fused_iteration(const TiledField& u) {
  // A single tile on one rank: each half-iteration's scalars step runs inside the task that made its
  // partial (two StarPU tasks fewer per iteration).
  const bool fold = one_tile();
  const ScalarsArgs after_precon = scalars_args(int(ScalarOp::PcgFusedPrecon), 2);
  const ScalarsArgs after_apply = scalars_args(int(ScalarOp::PcgFusedApply), 1);
  const bool one_task = one_task_precon();  // decided before this step's application is counted
  if (mg_ && mg_->one_task()) {
    // The multigrid form of Alg. 3 as one task (the update and sums ride in the cycle's finest sweeps).
    mg_->submit_pcg_precon(state_->handle(), 1, *q_, *r_, *z_, scratch_->handle(), partials_->handle(0),
                           fold ? &after_precon : nullptr);
  } else if (spectral_now() && spectral_->one_task()) {
    ++precon_calls_;
    spectral_->submit_pcg_precon(state_->handle(), 1, *q_, *r_, *z_, scratch_->handle(), partials_->handle(0),
                                 fold ? &after_precon : nullptr);
  } else if (mg_ || spectral_) {
    // The same as tasks on every tile: r <- r - alpha q, z = M r, then <r, r>, <r, z> in one pass.
    const TileLayout& L = d_.layout();
    const VectorUpdateArgs ur = residual_update_args(L, 1);
    for (int t = 0; t < d_.tiles(); ++t)
      insert_vector_update(ur, state_->handle(), q_->handle(t), r_->handle(t), kPrioBody);
    precondition(*r_, *z_, 1);
    for (int t = 0; t < d_.tiles(); ++t)
      insert_dot_partial(L, 1, state_->handle(), r_->handle(t), r_->handle(t), z_->handle(t), scratch_->handle(),
                         partials_->handle(t), kPrioBody);
  } else {
    pcg_line_iteration(u);
    return;
  }
  const bool precon_folded = fold && one_task;
  if (!precon_folded) submit_scalars(int(ScalarOp::PcgFusedPrecon), 2);
  // The one-task cycle's tile is the whole horizontally periodic domain: the apply reads z's
  // neighbours at their periodic images, so z needs no halo exchange. (Doing the same after the line
  // solves measured no gain: 0.523 against 0.501 ms per thin-shell iteration, 3 alternating rounds.)
  const bool z_periodic = one_task;
  if (!z_periodic) submit_halo_exchange(d_, *z_, *strips_);
  for (int t = 0; t < d_.tiles(); ++t)
    insert_pcg_fused_apply(args_, coef_->handle(), state_->handle(), u.handle(t), p_->handle(t), z_->handle(t),
                           q_->handle(t), scratch_->handle(), partials_->handle(t), kPrioBody,
                           fold ? &after_apply : nullptr, z_periodic);
  if (!fold) submit_scalars(int(ScalarOp::PcgFusedApply), 1);
}

void EllipticSolver::pcg_line_iteration(const TiledField& u) {
  // Two tasks per tile (pcg_line_kernel.hpp): no q recurrence, no stored forward sweep. The direction
  // alternates between p_ and q_ (the new one is written while the old one is still read); ap_ holds A p.
  // Several tiles or ranks only: a single tile runs its iterations as pcg_line_iterations tasks
  // (submit_iterations).
  const TiledField& p = line_iteration_ % 2 == 0 ? *p_ : *q_;
  const TiledField& p_next = line_iteration_ % 2 == 0 ? *q_ : *p_;
  ++line_iteration_;
  for (int t = 0; t < d_.tiles(); ++t)
    insert_pcg_line_step(args_, coef_->handle(), state_->handle(), ap_->handle(t), r_->handle(t), z_->handle(t),
                         scratch_->handle(), partials_->handle(t), kPrioBody);
  submit_scalars(int(ScalarOp::PcgFusedPrecon), 2);
  submit_halo_exchange(d_, *z_, *strips_);
  for (int t = 0; t < d_.tiles(); ++t)
    insert_pcg_line_direction(args_, coef_->handle(), state_->handle(), u.handle(t), p.handle(t), z_->handle(t),
                              p_next.handle(t), ap_->handle(t), scratch_->handle(), partials_->handle(t), kPrioBody);
  submit_scalars(int(ScalarOp::PcgLineApply), 1);
}

void EllipticSolver::pcg_unfused_iteration(const TiledField& u) {
  const TileLayout& L = d_.layout();
  submit_halo_exchange(d_, *p_, *strips_);
  for (int t = 0; t < d_.tiles(); ++t) {
    insert_elliptic_apply(args_, coef_->handle(), state_->handle(), p_->handle(t), q_->handle(t), kPrioBody);
    insert_dot_partial(L, 2, state_->handle(), p_->handle(t), q_->handle(t), q_->handle(t), scratch_->handle(),
                       partials_->handle(t), kPrioBody);
  }
  submit_scalars(int(ScalarOp::PcgSigma), 1);
  VectorUpdateArgs up{L, 2, state::kAlpha, -1, 1.0, 1.0};  // u <- u + alpha p
  const VectorUpdateArgs ur = residual_update_args(L, 2);  // r <- r - alpha q
  VectorUpdateArgs pz{L, 2, -1, state::kBeta, 1.0, 1.0};   // p <- z + beta p
  for (int t = 0; t < d_.tiles(); ++t) {
    insert_vector_update(up, state_->handle(), p_->handle(t), u.handle(t), kPrioBody);
    insert_vector_update(ur, state_->handle(), q_->handle(t), r_->handle(t), kPrioBody);
  }
  precondition(*r_, *z_, args_.skip_from);
  for (int t = 0; t < d_.tiles(); ++t) {
    insert_dot_partial(L, 2, state_->handle(), r_->handle(t), r_->handle(t), z_->handle(t), scratch_->handle(),
                       partials_->handle(t), kPrioBody);
  }
  submit_scalars(int(ScalarOp::PcgResidual), 2);
  for (int t = 0; t < d_.tiles(); ++t)
    insert_vector_update(pz, state_->handle(), z_->handle(t), p_->handle(t), kPrioBody);
}

void EllipticSolver::gcr_iteration(const TiledField& x) {
  if (spectral_) {
    // gcr_precon's updates and sums without its line solves (the x update, then r's with <r, r> and
    // max |r|), the residual test, then e = A^+ r, which a converged solve skips.
    const TileLayout& L = d_.layout();
    // A solve's first iteration has beta = 0 and no direction yet: nothing to update, and the start's
    // fused residual left <r, r> and max |r| in the partials already.
    const VectorUpdateArgs ux{L, 2, state::kBeta, -1, 1.0, 1.0};  // x <- x + beta p_last
    if (!gcr_first_)
      for (int t = 0; t < d_.tiles(); ++t) {
        insert_vector_update(ux, state_->handle(), gp_[last_slot_]->handle(t), x.handle(t), kPrioBody);
        insert_residual_update_dot(L, 2, state::kBeta, state_->handle(), gq_[last_slot_]->handle(t), r_->handle(t),
                                   scratch_->handle(), partials_->handle(t), kPrioBody);
      }
    submit_scalars(int(ScalarOp::GcrResidual), 1);
    precondition(*r_, *z_, 2);
  } else {
    for (int t = 0; t < d_.tiles(); ++t)
      insert_gcr_precon(args_, coef_->handle(), state_->handle(), x.handle(t), r_->handle(t),
                        gp_[last_slot_]->handle(t), gq_[last_slot_]->handle(t), z_->handle(t), scratch_->handle(),
                        partials_->handle(t), kPrioBody);
    submit_scalars(int(ScalarOp::GcrResidual), 1);
  }
  submit_halo_exchange(d_, *z_, *strips_);
  int fresh = 0;
  while (std::find(basis_.begin(), basis_.end(), fresh) != basis_.end()) ++fresh;
  for (int t = 0; t < d_.tiles(); ++t) {
    std::vector<starpu_data_handle_t> bq;
    for (int s : basis_) bq.push_back(gq_[s]->handle(t));
    insert_gcr_apply(args_, coef_->handle(), state_->handle(), z_->handle(t), gq_[fresh]->handle(t), bq,
                     scratch_->handle(), partials_->handle(t), kPrioBody);
  }
  submit_scalars(int(ScalarOp::GcrAlphas), int(basis_.size()), basis_);
  for (int t = 0; t < d_.tiles(); ++t) {
    std::vector<starpu_data_handle_t> bp, bq;
    for (int s : basis_) {
      bp.push_back(gp_[s]->handle(t));
      bq.push_back(gq_[s]->handle(t));
    }
    insert_gcr_direction(args_, state_->handle(), z_->handle(t), r_->handle(t), gp_[fresh]->handle(t),
                         gq_[fresh]->handle(t), bp, bq, scratch_->handle(), partials_->handle(t), kPrioBody);
  }
  submit_scalars(int(ScalarOp::GcrBeta), 2, {}, fresh);
  basis_.push_back(fresh);
  if (int(basis_.size()) == s_.restart) basis_.assign(1, fresh);  // restart, keeping the newest direction
  last_slot_ = fresh;
  gcr_first_ = false;
}

void EllipticSolver::submit_start(const TiledField& u, const TiledField& f, bool ghosts_current) {
  submit_reset();
  line_iteration_ = 0;
  precon_calls_ = 0;
  if (line_form()) {
    residual(u, f, *r_, ghosts_current);  // the line form needs r only (its first iteration reads no direction)
  } else if (s_.method == KrylovMethod::Pcg) {
    if (!ghosts_current) submit_halo_exchange(d_, u, *strips_);  // r = f - A u and p = q = 0 in one pass
    for (int t = 0; t < d_.tiles(); ++t)
      insert_pcg_start(args_, coef_->handle(), u.handle(t), f.handle(t), r_->handle(t), p_->handle(t), q_->handle(t),
                       kPrioBody);
    if (!s_.fused) {
      precondition(*r_, *z_, args_.skip_from);
      for (int t = 0; t < d_.tiles(); ++t) {
        insert_vector_update(VectorUpdateArgs{d_.layout(), 2, -1, -1, 1.0, 0.0}, state_->handle(), z_->handle(t),
                             p_->handle(t), kPrioBody);
        insert_dot_partial(d_.layout(), 2, state_->handle(), r_->handle(t), r_->handle(t), z_->handle(t),
                           scratch_->handle(), partials_->handle(t), kPrioBody);
      }
      submit_scalars(int(ScalarOp::PcgInit), 2);
    }
  } else {
    residual(u, f, *r_, ghosts_current);  // with <r, r> and max |r|, which the spectral form's first iteration tests
    // gcr_precon's first iteration adds beta = 0 times slot 0's direction; every other slot is written
    // before it is read (a fresh direction), so only slot 0 must hold finite numbers (zeroing all of
    // them took 1 ms per solve at 256^3). The spectral form submits no update in a first iteration.
    if (!spectral_) {
      zero(*gp_[0], f);
      zero(*gq_[0], f);
    }
    basis_.clear();
    last_slot_ = 0;
    gcr_first_ = true;
  }
}

void EllipticSolver::submit_iteration(const TiledField& u) {
  if (s_.method == KrylovMethod::Gcr)
    gcr_iteration(u);
  else if (s_.fused)
    pcg_fused_iteration(u);
  else
    pcg_unfused_iteration(u);
}

void EllipticSolver::submit_iterations(const TiledField& u, int count) {
  if (count <= 0) return;
  if (line_form() && one_tile()) {
    // One task for the lot: no StarPU round trip between the kernels (they run back to back on the
    // worker's stream; the scalars steps run on the device).
    insert_pcg_line_iterations(args_, coef_->handle(), state_->handle(), u.handle(0), p_->handle(0), q_->handle(0),
                               ap_->handle(0), r_->handle(0), z_->handle(0), scratch_->handle(), partials_->handle(0),
                               kPrioBody, scalars_args(int(ScalarOp::PcgFusedPrecon), 2),
                               scalars_args(int(ScalarOp::PcgLineApply), 1), line_iteration_ % 2, count);
    line_iteration_ += count;
    return;
  }
  for (int n = 0; n < count; ++n) submit_iteration(u);
}

void EllipticSolver::submit_direct(const TiledField& u, const TiledField& f) {
  submit_reset();
  spectral_->submit(running_->handle(), 3, f, u);  // running_: never skipped
}

void EllipticSolver::submit_check(const TiledField& u, const TiledField& f) {
  if (!direct()) return;
  // The diagnostics' priority: after the gradient that reads u, and so into the wait for its halo.
  for (int t = 0; t < d_.tiles(); ++t)
    insert_elliptic_residual_max(args_, coef_->handle(), u.handle(t), f.handle(t), partials_->handle(t),
                                 kPrioDiagnostics);
  submit_scalars(int(ScalarOp::Direct), 1);
}

void EllipticSolver::submit_solve(const TiledField& u, const TiledField& f, int iterations, bool ghosts_current) {
  if (direct()) {
    submit_direct(u, f);
    return;
  }
  submit_start(u, f, ghosts_current);
  // Fused PCG needs one more pass than iterations to finish (the pending u update).
  submit_iterations(u, std::min(iterations, s_.max_iter) + 1);
}

SolveResult EllipticSolver::solve(const TiledField& u, const TiledField& f) {
  const auto t0 = std::chrono::steady_clock::now();
  if (direct()) {
    submit_direct(u, f);
    submit_halo_exchange(d_, u, *strips_);
    submit_check(u, f);
    SolveResult res = read_state();
    starpu_mpi_wait_for_all(MPI_COMM_WORLD);
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return res;
  }
  submit_start(u, f);
  // Submit in batches; the state tells when to stop. The host checks a copy of the state taken after
  // batch n while batch n + 1 is already submitted, so the workers never wait for the host's check.
  // A batch past convergence costs only the launch of tasks that return at once. A single tile's line
  // form stops on the device (pcg_line_iterations_cuda loops until the state says done): one batch, and
  // no StarPU round trip between batches (~60 us each on the H100 node).
  const int every = line_form() && one_tile() ? s_.max_iter + 1 : std::max(1, s_.check_every);
  auto submit_batch = [&](int& submitted) {
    const int batch = std::min(every, s_.max_iter + 1 - submitted);
    if (batch <= 0) return false;
    submit_iterations(u, batch);
    submitted += batch;
    return true;
  };
  SolveResult res;
  int submitted = 0;
  submit_batch(submitted);
  for (int n = 0;; ++n) {
    starpu_data_handle_t copy = state_copies_[n % 2]->handle();
    submit_state_copy(copy, kPrioHalo);
    const bool more = submit_batch(submitted);
    res = read_state_copy(copy);
    if (res.iterations >= 0) break;
    if (!more) throw std::logic_error("elliptic solver: state did not finish after max_iter");
  }
  starpu_mpi_wait_for_all(MPI_COMM_WORLD);
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace tdc
