// The dynamical core's state on tiles (velocity, its previous value, pressure, Courant numbers,
// theta' with buoyancy) and the NFT step graph over it; the Taylor-Green and thermal-bubble initial
// states; diagnostics from gathered fields.
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../../graph/courant_check.hpp"
#include "../../graph/flow_diagnostics.hpp"
#include "../../graph/nft_step.hpp"
#include "../../graph/runtime/host_channel.hpp"
#include "dycore_config.hpp"
#include "../io/checkpoint.hpp"

namespace tdc {

struct FlowDiagnostics {
  long step = 0;
  double time = 0;
  double kinetic_energy = 0;  // (1/V) integral of |v|^2 / 2
  double enstrophy = 0;       // (1/V) integral of |curl v|^2 / 2, centred differences
  double vorticity_l1 = 0;    // (1/V) integral of |curl v|
  double vorticity_l2 = 0;    // sqrt((1/V) integral of |curl v|^2)
  double vorticity_max = 0;   // max |curl v|
  double max_divergence = 0;  // max |D v| (the centred divergence the projection removes)
  double max_courant = 0;     // max of dt (|u|/dx + |v|/dy + |w|/dz)
  // With theta' (thermal bubble):
  double theta_mean = 0;    // (1/V) integral of theta' (the heat content; MPDATA conserves it)
  double theta_change = 0;  // its relative change since the run's first record (dycore_run sets it)
  double theta_max = 0;
  double theta_centroid_z = 0;  // integral of theta' z / integral of theta' (the bubble's height)
  double potential_energy = 0;  // -(g / theta_0) (1/V) integral of theta' z
  double theta_asymmetry = 0;   // max |theta'(x) - theta'(mirror x)| over the x, y and diagonal mirrors
  double w_asymmetry = 0;       // the same for w
  int solver_iterations = 0;    // of the latest step's pressure solve
  double solver_residual = 0;   // its final ||r||
  bool solver_converged = false;
};

// The outcome of one step's pressure solve: iterations, or -1 when its budget ran out first.
struct StepSolve {
  long step = 0;
  int iterations = 0;
  bool converged = false;
  double residual = 0.0;  // ||r|| at the end: not finite once the flow holds a NaN or an infinity
};

class DycoreModel {
 public:
  // `restart` (optional) replaces the initial state by a checkpoint's fields and step (the fields
  // checkpoint_fields() names); no start-up solve is made then.
  DycoreModel(const DycoreConfig& cfg, int rank, int ranks, const io::CheckpointState* restart = nullptr);
  // The fields that determine the trajectory from a step on: v^n, v^(n-1), p^n (the explicit half
  // forcing and the solver's first guess) and theta'^n with buoyancy.
  static std::vector<std::string> checkpoint_fields(const DycoreConfig& cfg);
  // Collective: those fields gathered on rank 0 into `s` (with the step, time and grid size).
  void gather_state(io::CheckpointState& s);
  // The step the model started from (0, or a checkpoint's).
  long first_step() const { return first_step_; }
  // This step's u, v, w, p (and theta'), as field_names() names them (for output snapshots).
  std::vector<const TiledField*> output_fields() const;
  const Decomposition& decomposition() const { return d_; }
  long step() const { return step_; }
  // Submits `count` steps with a bounded look-ahead; nothing waits inside a step.
  void submit_steps(long count);
  // Collective, asynchronous: submits the diagnostics of the current state (codelets on snapshots,
  // graph/flow_diagnostics); nothing waits for them until their slot is reused.
  void submit_diagnostics();
  // Collective: the records collected so far (all of them with `finish`), in step order; complete
  // on rank 0, the solver fields on every rank.
  std::vector<FlowDiagnostics> take_diagnostics(bool finish);
  // Collective and synchronous, the reference for the above: fields gathered on rank 0 and the same
  // diagnostics computed there in plain loops, plus the mirror symmetries of a bubble. The gathered
  // velocity is left in `vel` when given.
  FlowDiagnostics diagnose(std::vector<double> (*vel)[3] = nullptr);
  void gather(std::vector<double> (&vel)[3]);
  void gather_theta(std::vector<double>& theta);
  // Collective: u, v, w, p (and theta') gathered on rank 0, named as field_names() says.
  std::vector<std::string> field_names() const;
  void gather_fields(std::vector<std::vector<double>>& fields);
  bool has_theta() const { return f_.theta[0] != nullptr; }
  // The start-up solve: the hydrostatic balance of a bubble at rest, or the projection of the
  // modified Taylor-Green velocity; empty (0 iterations) otherwise.
  const SolveResult& startup_solve() const { return startup_; }
  // Collective: reads the solves of the steps submitted but not read yet (after the last step).
  void finish_solve_checks();
  // The pressure solve of every step of this run read so far (all of them after finish_solve_checks).
  const std::vector<StepSolve>& step_solves() const { return solves_; }
  // The per-step Courant check, read kBudgetLag steps late like the solves: the latest step read
  // and the largest Courant sum over this rank's tiles there (+inf where a value is not finite).
  long courant_checked_step() const { return courant_step_; }
  double courant_here() const { return courant_here_; }
  // Reads the next step's check not read yet (after the last step); false when none is left.
  bool check_next_courant();
  // The steady step time, ms: from the times this rank read the steps' Courant checks (the host
  // waits there for each step's check task), over the steps after the first quarter of the run (at
  // least 4 in), so that start-up, calibration and the final output drop out. 0 under 8 steps.
  double steady_ms_per_step() const;
  long steady_from_step() const;
  // Collective: the largest Courant sum of a step checked at most kStopLag checks ago over every tile
  // (rank 0; 0 elsewhere).
  double courant_everywhere(long step) const { return courant_->global_max(step); }

 private:
  DycoreConfig cfg_;
  int rank_;
  Decomposition d_;
  std::vector<std::unique_ptr<TiledField>> owned_;
  std::vector<std::unique_ptr<TileStrips>> strips_;
  NftFields f_{};
  std::unique_ptr<NftStepGraph> graph_;
  std::unique_ptr<AsyncFlowDiagnostics> diagnostics_;
  // The per-step solver budget (iterations submitted; the solve stops on the GPU at the tolerance).
  // Every step's solver state is copied (a task) and read kBudgetLag steps later, when the copy has
  // long finished (the submission window is 2 steps): so every step's solve is checked, and the
  // budget of step n + 1 depends only on the counts of steps <= n - kBudgetLag (the same on every
  // rank, for any tiles or scheduler, so results do not depend on them). solver.max_iter (the
  // spectral inverse: 4) until kBudgetWarmup counts are known, solver.max_iter after any unfinished
  // solve; else sized from the largest of the last kBudgetWindow counts (size_solver_budget).
  static constexpr int kBudgetLag = 3, kBudgetWarmup = 6, kBudgetWindow = 4;
  std::unique_ptr<RankZeroVector> solve_copy_[kBudgetLag + 1];
  // Over ranks, where MPI allows it (host_channel.hpp): rank 0 reads a step's copy kBudgetLag - 1
  // steps late and broadcasts it on the host channel; every rank takes it a step later. Else every
  // rank receives the copy through StarPU-MPI and reads it kBudgetLag steps late.
  std::unique_ptr<HostChannel> channel_;
  std::deque<std::pair<long, std::unique_ptr<Posted<double>>>> shared_solves_;  // step, its state
  void share_solve(long step);
  std::vector<StepSolve> solves_;  // every step of this run whose solve was read, in step order
  std::unique_ptr<StepCourantCheck> courant_;
  long courant_step_ = 0;
  double courant_here_ = 0.0;
  std::vector<std::pair<long, double>> checked_at_;  // step, seconds (steady clock) its check was read
  void read_solve(long step);
  void size_solver_budget();
  std::vector<std::pair<TiledField*, TileStrips*>> checkpointed() const;
  long step_ = 0, first_step_ = 0;
  int local_tiles_ = 0;
  SolveResult startup_;
};

}  // namespace tdc
