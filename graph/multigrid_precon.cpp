#include "multigrid_precon.hpp"

#include <starpu_mpi.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "../codelets/common/codelet.hpp"
#include "../codelets/multigrid/multigrid.hpp"
#include "../codelets/multigrid/vcycle_schedule.hpp"
#include "halo_exchange.hpp"

namespace tdc {

int multigrid_max_levels(const Grid& g) {
  int levels = 1;
  for (int nx = g.nx, ny = g.ny, nz = g.nz; nx % 4 == 0 && ny % 4 == 0 && nz % 4 == 0; nx /= 2, ny /= 2, nz /= 2)
    ++levels;
  return levels;
}

int multigrid_auto_levels(const Grid& g) {
  int levels = 1;
  for (int n = std::min({g.nx, g.ny, g.nz}); levels < multigrid_max_levels(g) && n / 2 >= 8; n /= 2) ++levels;
  return levels;
}

bool multigrid_tiles_fit(int n, int tiles, int levels) {
  for (int l = 0; l < levels; ++l, n /= 2) {
    const int w = n / tiles;
    if (n % tiles != 0 || w < 2 || (l < levels - 1 && w % 4 != 0)) return false;
  }
  return true;
}

MultigridPreconditioner::MultigridPreconditioner(const Decomposition& fine, int rank,
                                                 const std::vector<OperatorLevel>& ops, const MultigridSettings& s)
    : s_(s) {
  if (ops.empty() || ops[0].grid.nx != fine.layout().nx * fine.tiles_x())
    throw std::invalid_argument("multigrid: level 0 must be the solver's grid");
  const Grid& g = ops[0].grid;
  if (int(ops.size()) > multigrid_max_levels(g) || !multigrid_tiles_fit(g.nx, fine.tiles_x(), int(ops.size())) ||
      !multigrid_tiles_fit(g.ny, fine.tiles_y(), int(ops.size())))
    throw std::invalid_argument("multigrid: the grid or its tiles do not allow " + std::to_string(ops.size()) +
                                " levels");
  levels_.resize(ops.size());
  one_task_ = s.one_task && fine.tiles_x() == 1 && fine.tiles_y() == 1;
  whole_from_ = int(ops.size());
  if (fine.tiles() > 1 && s.whole_cells > 0)
    for (int l = 1; l < int(ops.size()) && whole_from_ == int(ops.size()); ++l)
      if (long(ops[l].grid.nx) * ops[l].grid.ny * ops[l].grid.nz <= s.whole_cells) whole_from_ = l;
  for (std::size_t l = 0; l < ops.size(); ++l) {
    Level& v = levels_[l];
    v.h = ops[l].couplings;
    if (int(l) > whole_from_) continue;  // run whole, below
    if (l == 0) {
      v.d = &fine;
    } else {
      v.own = std::make_unique<Decomposition>(ops[l].grid, fine.tiles_x(), fine.tiles_y(), ops[l].couplings.h,
                                              fine.ranks());
      v.d = v.own.get();
    }
    if (one_task_) continue;  // the cycle's arrays are its scratch
    const std::string n = "mg" + std::to_string(l);
    if (l > 0) {
      v.r = std::make_unique<TiledField>(n + "_r", *v.d, rank, false);
      v.z = std::make_unique<TiledField>(n + "_z", *v.d, rank, false);
    }
    if (int(l) == whole_from_) continue;  // its cycle runs whole: only its right-hand side and result here
    v.coef = std::make_unique<RankZeroVector>(rank, ops[l].coefficients);
    v.strips = std::make_unique<TileStrips>(*v.d, rank);
    v.a = std::make_unique<TiledField>(n + "_a", *v.d, rank, false);
  }
  // The levels one cycle runs on one tile: all of them (one_task_), or those from whole_from_ on.
  const int first = one_task_ ? 0 : whole_from_;
  if (!one_task_ && first < int(ops.size())) {
    for (std::size_t l = first; l < ops.size(); ++l)
      whole_.push_back(std::make_unique<Decomposition>(ops[l].grid, 1, 1, ops[l].couplings.h, fine.ranks()));
    whole_r_ = std::make_unique<TiledField>("mg_whole_r", *whole_[0], rank, false);
    whole_z_ = std::make_unique<TiledField>("mg_whole_z", *whole_[0], rank, false);
  }
  if (first < int(ops.size())) {
    std::vector<TileLayout> tiles;
    std::vector<ColumnCouplings> h;
    std::vector<std::size_t> sizes;
    std::vector<double> coef;
    for (std::size_t l = first; l < ops.size(); ++l) {
      tiles.push_back(one_task_ ? levels_[l].d->layout() : whole_[l - first]->layout());
      h.push_back(levels_[l].h);
      sizes.push_back(ops[l].coefficients.size());
      coef.insert(coef.end(), ops[l].coefficients.begin(), ops[l].coefficients.end());
    }
    plan_ = make_vcycle_plan(tiles, h, sizes, s.coarse_sweeps, s.omega);
    coef_all_ = std::make_unique<RankZeroVector>(rank, coef);
    scratch_ = std::make_unique<ScratchBuffer>(sizeof(double) * plan_.scratch_doubles);
  }
}

MultigridPreconditioner::~MultigridPreconditioner() { starpu_mpi_wait_for_all(MPI_COMM_WORLD); }

struct MultigridPreconditioner::TaskOps {
  const MultigridPreconditioner& m;
  starpu_data_handle_t state;
  int skip_from;
  const TiledField& r0;
  const TiledField& z0;

  const Level& level(int l) const { return m.levels_[l]; }
  const TiledField& field(int l, MgField f) const {
    if (f == MgField::Smoothed) return *level(l).a;
    if (l == 0) return f == MgField::Rhs ? r0 : z0;
    return f == MgField::Rhs ? *level(l).r : *level(l).z;
  }
  // jacobi_first and prolong_add pack their output's strips in their own task (the schedule follows
  // both by that field's halo exchange, but for a single coarsest sweep); halo then unpacks them.
  mutable std::set<std::pair<int, MgField>> packed;
  const starpu_data_handle_t* strips_of(int l, MgField f, int t) const {
    if (level(l).d->tiles() < 2) return nullptr;  // (a single tile is its own neighbour: halo_self)
    packed.insert({l, f});
    return level(l).strips->of(t);
  }
  const SendAhead* sends_of(int l, int t) const {
    return level(l).d->tiles() < 2 ? nullptr : level(l).strips->sends(t);
  }
  void jacobi_first(int l, MgField out) const {
    const Level& v = level(l);
    for (int t = 0; t < v.d->tiles(); ++t)
      insert_mg_jacobi_first(m.args(v, skip_from), m.s_.omega, v.coef->handle(), state,
                             field(l, MgField::Rhs).handle(t), field(l, out).handle(t), kPrioBody, strips_of(l, out, t),
                             sends_of(l, t));
  }
  void jacobi(int l, MgField in, MgField out) const {
    const Level& v = level(l);
    for (int t = 0; t < v.d->tiles(); ++t)
      insert_mg_jacobi(m.args(v, skip_from), m.s_.omega, v.coef->handle(), state, field(l, MgField::Rhs).handle(t),
                       field(l, in).handle(t), field(l, out).handle(t), kPrioBody);
  }
  void halo(int l, MgField f) const {
    const std::vector<HaloField> h{{&field(l, f), level(l).strips.get()}};
    if (packed.erase({l, f}))
      submit_halo_unpack_of_packed(*level(l).d, h);
    else
      submit_halo_exchange(*level(l).d, h);
  }
  void restrict_residual(int l) const {
    const Level& v = level(l);
    for (int t = 0; t < v.d->tiles(); ++t)
      insert_mg_restrict_residual(m.args(v, skip_from), level(l + 1).d->layout(), v.coef->handle(), state,
                                  field(l, MgField::Rhs).handle(t), field(l, MgField::Smoothed).handle(t),
                                  field(l + 1, MgField::Rhs).handle(t), kPrioBody);
  }
  void prolong_add(int l) const {
    const Level& v = level(l);
    for (int t = 0; t < v.d->tiles(); ++t)
      insert_mg_prolong_add(m.args(v, skip_from), level(l + 1).d->layout(), state,
                            field(l + 1, MgField::Result).handle(t), field(l, MgField::Smoothed).handle(t), kPrioBody,
                            strips_of(l, MgField::Smoothed, t), sends_of(l, t));
  }
};

void MultigridPreconditioner::submit(starpu_data_handle_t state, int skip_from, const TiledField& r0,
                                     const TiledField& z0) const {
  if (one_task_) {
    VcyclePlan p = plan_;
    p.skip_from = skip_from;
    insert_mg_vcycle(p, coef_all_->handle(), state, r0.handle(0), z0.handle(0), scratch_->handle(), kPrioBody);
    return;
  }
  const TaskOps ops{*this, state, skip_from, r0, z0};
  if (whole_from_ == levels())
    vcycle_schedule(ops, levels(), s_.coarse_sweeps);
  else
    vcycle_around(ops, whole_from_, [&](int) { submit_whole_cycle(state, skip_from); });
}

void MultigridPreconditioner::submit_whole_cycle(starpu_data_handle_t state, int skip_from) const {
  // Level whole_from_'s right-hand side from the tiles onto one tile, the cycle of the levels from
  // there on (the kernels the tiles' tasks would have run, in the same order: the same bits), and
  // the level's result back to the tiles.
  const Level& v = levels_[whole_from_];
  const TileLayout& whole = whole_[0]->layout();
  std::vector<starpu_data_handle_t> tiles;
  for (int t = 0; t < v.d->tiles(); ++t) tiles.push_back(v.r->handle(t));
  insert_mg_gather(v.d->layout(), v.d->tiles_x(), whole, skip_from, state, tiles, whole_r_->handle(0), kPrioBody);
  VcyclePlan p = plan_;
  p.skip_from = skip_from;
  insert_mg_vcycle(p, coef_all_->handle(), state, whole_r_->handle(0), whole_z_->handle(0), scratch_->handle(),
                   kPrioBody);
  for (int t = 0; t < v.d->tiles(); ++t)
    insert_mg_scatter(whole, v.d->layout(), v.d->tile_x(t), v.d->tile_y(t), skip_from, state, whole_z_->handle(0),
                      v.z->handle(t), kPrioBody);
}

void MultigridPreconditioner::submit_pcg_precon(starpu_data_handle_t state, int skip_from, const TiledField& q,
                                                const TiledField& r, const TiledField& z,
                                                starpu_data_handle_t dot_scratch, starpu_data_handle_t partials,
                                                const ScalarsArgs* then) const {
  if (!one_task_) throw std::logic_error("multigrid: submit_pcg_precon needs the one-task cycle");
  VcyclePlan p = plan_;
  p.skip_from = skip_from;
  insert_mg_pcg_precon(p, coef_all_->handle(), state, q.handle(0), r.handle(0), z.handle(0), scratch_->handle(),
                       dot_scratch, partials, kPrioBody, then);
}

}  // namespace tdc
