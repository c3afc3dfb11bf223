#include "advection_model.hpp"

#include <cstring>

#include "../../graph/field_tasks.hpp"
#include "../../graph/halo_exchange.hpp"

namespace tdc {
namespace {

std::unique_ptr<TiledField> optional_field(bool wanted, const char* name, const Decomposition& d, int rank) {
  return wanted ? std::make_unique<TiledField>(name, d, rank) : nullptr;
}

// Fills the owned tiles of every field from the analytic case (ghost ring included, with the
// periodic images, so Courant numbers and G need no exchange).
void initialise(const Decomposition& d, const AdvectionCase& ac, TiledField& psi, TiledField* c[3], TiledField* s[3],
                TiledField& g) {
  const std::size_t bytes = d.layout().size() * sizeof(double);
  for (int t = 0; t < d.tiles(); ++t) {
    if (!psi.owned(t)) continue;
    ac.fill_tile(d, t, psi.host(t), c[0]->host(t), c[1]->host(t), c[2]->host(t), g.host(t));
    for (int q = 0; q < 3; ++q)
      if (s[q]) std::memcpy(s[q]->host(t), c[q]->host(t), bytes);  // the spatial pattern of a time-dependent flow
  }
}

}  // namespace

AdvectionModel::AdvectionModel(const AdvectionConfig& cfg, int rank, int ranks, const io::CheckpointState* restart)
    : cfg_(cfg),
      rank_(rank),
      d_(cfg.grid, cfg.tiles_x, cfg.tiles_y, cfg.halo, ranks),
      case_(cfg),
      psi_a_("psi", d_, rank),
      psi_b_("psi_next", d_, rank),
      c1_("c1", d_, rank),
      c2_("c2", d_, rank),
      c3_("c3", d_, rank),
      g_("G", d_, rank),
      s1_(optional_field(case_.time_dependent(), "s1", d_, rank)),
      s2_(optional_field(case_.time_dependent(), "s2", d_, rank)),
      s3_(optional_field(case_.time_dependent(), "s3", d_, rank)),
      strips_(d_, rank),
      fields_{{&psi_a_, &psi_b_}, &c1_, &c2_, &c3_, &g_, s1_.get(), s2_.get(), s3_.get(), &strips_},
      graph_(d_, cfg.mpdata, cfg.overlap),
      reduction_(d_, rank),
      diagnostics_(cfg.diagnostics_interval > 0 ? std::make_unique<AsyncDiagnostics>(d_, rank) : nullptr) {
  TiledField* c[3] = {&c1_, &c2_, &c3_};
  TiledField* s[3] = {s1_.get(), s2_.get(), s3_.get()};
  initialise(d_, case_, psi_a_, c, s, g_);
  if (restart) {
    load_interiors(d_, restart->field("psi"), psi_a_);
    step_ = restart->step;
    // The field of step n lives in psi[n % 2]: keep that invariant (the graph alternates on it).
    if (step_ % 2) std::swap(fields_.psi[0], fields_.psi[1]);
  }
  for (int t = 0; t < d_.tiles(); ++t) local_tiles_ += d_.owner(t) == rank;
  submit_halo_exchange(d_, psi_a_, strips_);  // psi_a_ holds the state of step_ either way
}

void AdvectionModel::submit_steps(long count, int window_steps) {
  // Tasks per step on this rank: the graph's per tile, plus scale_courant for time-dependent flows.
  const int per_tile = graph_.tasks_per_tile() + (s1_ ? 1 : 0);
  // Pending low-priority diagnostics count too (a ring of 4 snapshots, 2 tasks per tile each).
  const int diagnostics = diagnostics_ ? 4 * 2 * local_tiles_ : 0;
  const unsigned window = unsigned(std::max(1, window_steps * local_tiles_ * per_tile + diagnostics));
  for (long n = 0; n < count; ++n) {
    graph_.submit_step(fields_, step_, case_.time_factor(step_ * cfg_.dt));
    ++step_;
    if (diagnostics_ && step_ % cfg_.diagnostics_interval == 0) submit_diagnostics();
    wait_for_submitted(window);
  }
}

void AdvectionModel::submit_diagnostics() {
  if (diagnostics_) diagnostics_->submit(psi(), g_, step_, time());
}

std::vector<DiagnosticRecord> AdvectionModel::take_diagnostics(bool wait_all) {
  if (!diagnostics_) return {};
  if (wait_all) diagnostics_->collect_all();
  return diagnostics_->take_collected();
}

Moments AdvectionModel::moments() {
  reduction_.submit(psi(), g_, kPrioBody);
  return reduction_.collect();
}

void AdvectionModel::gather(std::vector<double>& global) const { gather_field(d_, psi(), rank_, global); }

}  // namespace tdc
