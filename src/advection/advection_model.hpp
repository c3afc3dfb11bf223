// The advection model's state on tiles and the operations on it: initial state from the analytic
// case, the initial halo exchange, submitting steps (bounded look-ahead), reductions and gathering.
// Used by `taskdycore run` (advection_run) and `taskdycore bench` (bench_mpdata).
#pragma once
#include <memory>
#include <vector>

#include "../../graph/diagnostics.hpp"
#include "../../graph/mpdata_graph.hpp"
#include "../../graph/reductions.hpp"
#include "advection_case.hpp"
#include "../io/checkpoint.hpp"

namespace tdc {

class AdvectionModel {
 public:
  // `restart` (optional) replaces the analytic initial state by a checkpoint's field and step.
  AdvectionModel(const AdvectionConfig& cfg, int rank, int ranks, const io::CheckpointState* restart = nullptr);
  const Decomposition& decomposition() const { return d_; }
  const AdvectionCase& analytic() const { return case_; }
  long step() const { return step_; }
  double time() const { return step_ * cfg_.dt; }
  const TiledField& psi() const { return *fields_.psi[step_ % 2]; }

  // Submits `count` steps, and the asynchronous diagnostics of every diagnostics.interval-th state;
  // returns once at most `window_steps` steps are still in flight here.
  void submit_steps(long count, int window_steps = 3);
  // Submits the diagnostics of the current state now (e.g. the initial state).
  void submit_diagnostics();
  // Collective: diagnostics records finished so far (all of them with `wait_all`), rank 0.
  std::vector<DiagnosticRecord> take_diagnostics(bool wait_all);
  // Collective: per-tile compensated moments of psi, combined on rank 0.
  Moments moments();
  // Collective: psi gathered on rank 0 ([nz][ny][nx], x fastest).
  void gather(std::vector<double>& global) const;

 private:
  AdvectionConfig cfg_;
  int rank_;
  Decomposition d_;
  AdvectionCase case_;
  TiledField psi_a_, psi_b_, c1_, c2_, c3_, g_;
  std::unique_ptr<TiledField> s1_, s2_, s3_;
  TileStrips strips_;
  MpdataFields fields_;
  MpdataGraph graph_;
  MomentsReduction reduction_;
  std::unique_ptr<AsyncDiagnostics> diagnostics_;
  long step_ = 0;
  int local_tiles_ = 0;
};

}  // namespace tdc
