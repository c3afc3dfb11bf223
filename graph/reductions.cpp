#include "reductions.hpp"

#include <starpu_mpi.h>

#include <algorithm>
#include <limits>

#include "../codelets/common/codelet.hpp"
#include "../codelets/dot_partial/dot_partial.hpp"
#include "../codelets/solver_scalars/solver_scalars.hpp"

namespace tdc {

MomentsReduction::MomentsReduction(const Decomposition& d, int rank)
    : d_(d), rank_(rank), partials_(d, rank, kMomentsDoubles), scratch_(tile_moments_scratch_bytes(d.layout())) {}

void MomentsReduction::submit(const TiledField& psi, const TiledField& g, int priority) {
  for (int t = 0; t < d_.tiles(); ++t)
    insert_tile_moments(d_.layout(), psi.handle(t), g.handle(t), scratch_.handle(), partials_.handle(t), priority);
}

Moments collect_tile_moments(const Decomposition& d, int rank, const TileVectors& partials) {
  Moments total{};
  read_tile_partials(d, rank, partials, [&](int t, const double* v) {
    const Moments m = moments_from(v);
    total = t == 0 ? m : combine(total, m);
  });
  return total;
}

Moments MomentsReduction::collect() { return collect_tile_moments(d_, rank_, partials_); }

ReductionChain::ReductionChain(const Decomposition& d, int rank, int solver_max_iter)
    : d_(d), state_size_(state_doubles(solver_max_iter)) {
  r_ = std::make_unique<TiledField>("reduction_r", d, rank);
  z_ = std::make_unique<TiledField>("reduction_z", d, rank);
  for (int t = 0; t < d.tiles(); ++t)
    if (r_->owned(t)) {  // no task has touched them yet: their host buffers are theirs
      std::fill(r_->host(t), r_->host(t) + d.layout().size(), 1.0);
      std::fill(z_->host(t), z_->host(t) + d.layout().size(), 2.0);
    }
  partials_ = std::make_unique<TileVectors>(d, rank, 2 * kMaxSums);  // as the solver's
  state_ = std::make_unique<RankZeroVector>(rank, state_size_);
  scratch_ = std::make_unique<ScratchBuffer>(dot_partial_scratch_bytes(d.layout()));
}

ReductionChain::~ReductionChain() { starpu_mpi_wait_for_all(MPI_COMM_WORLD); }

void ReductionChain::submit_reset() {
  ScalarsArgs reset;
  reset.op = ScalarOp::Reset;
  reset.tol_rel = 0.0;  // never met
  reset.tol_abs = 0.0;
  reset.max_iter = std::numeric_limits<int>::max();  // GcrResidual never counts an iteration either
  reset.state_size = state_size_;
  insert_solver_scalars(reset, state_->handle(), {});
}

void ReductionChain::submit_rounds(int rounds, bool combine) {
  ScalarsArgs a;
  a.op = ScalarOp::GcrResidual;
  a.tiles = d_.tiles();
  a.sums = 1;
  std::vector<starpu_data_handle_t> partials(d_.tiles());
  for (int t = 0; t < d_.tiles(); ++t) partials[t] = partials_->handle(t);
  for (int n = 0; n < rounds; ++n) {
    for (int t = 0; t < d_.tiles(); ++t)  // skip_from 2: the state never finishes, so no task skips
      insert_dot_partial(d_.layout(), 2, state_->handle(), r_->handle(t), r_->handle(t), z_->handle(t),
                         scratch_->handle(), partials_->handle(t), kPrioBody);
    if (combine) insert_solver_scalars(a, state_->handle(), partials);
  }
}

double ReductionChain::recorded_norm() {
  starpu_mpi_get_data_on_all_nodes_detached(MPI_COMM_WORLD, state_->handle());
  starpu_data_acquire(state_->handle(), STARPU_R);
  const double norm =
      static_cast<const double*>(starpu_data_handle_to_pointer(state_->handle(), STARPU_MAIN_RAM))[state::kRes];
  starpu_data_release(state_->handle());
  return norm;
}

}  // namespace tdc
