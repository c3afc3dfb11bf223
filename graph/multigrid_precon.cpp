#include "multigrid_precon.hpp"

#include <starpu_mpi.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "../codelets/common/codelet.hpp"
#include "../codelets/multigrid/multigrid.hpp"
#include "halo_exchange.hpp"

namespace tdc {

int multigrid_max_levels(const Grid& g) {
  int levels = 1;
  for (int nx = g.nx, ny = g.ny, nz = g.nz; nx % 4 == 0 && ny % 4 == 0 && nz % 4 == 0; nx /= 2, ny /= 2, nz /= 2) ++levels;
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
    throw std::invalid_argument("multigrid: the grid or its tiles do not allow " + std::to_string(ops.size()) + " levels");
  levels_.resize(ops.size());
  for (std::size_t l = 0; l < ops.size(); ++l) {
    Level& v = levels_[l];
    if (l == 0) {
      v.d = &fine;
    } else {
      v.own = std::make_unique<Decomposition>(ops[l].grid, fine.tiles_x(), fine.tiles_y(), ops[l].couplings.h,
                                              fine.ranks());
      v.d = v.own.get();
    }
    v.h = ops[l].couplings;
    v.coef = std::make_unique<RankZeroVector>(rank, ops[l].coefficients);
    v.strips = std::make_unique<TileStrips>(*v.d, rank);
    const std::string n = "mg" + std::to_string(l);
    v.a = std::make_unique<TiledField>(n + "_a", *v.d, rank, false);
    if (l > 0) {
      v.r = std::make_unique<TiledField>(n + "_r", *v.d, rank, false);
      v.z = std::make_unique<TiledField>(n + "_z", *v.d, rank, false);
    }
  }
}

MultigridPreconditioner::~MultigridPreconditioner() { starpu_mpi_wait_for_all(MPI_COMM_WORLD); }

void MultigridPreconditioner::submit(starpu_data_handle_t state, int skip_from, const TiledField& r0,
                                     const TiledField& z0) const {
  const int last = levels() - 1;
  auto rhs = [&](int l) -> const TiledField& { return l == 0 ? r0 : *levels_[l].r; };
  auto result = [&](int l) -> const TiledField& { return l == 0 ? z0 : *levels_[l].z; };
  const double w = s_.omega;
  // Down: one sweep from zero, then the restricted residual.
  for (int l = 0; l < last; ++l) {
    const Level& v = levels_[l];
    const Level& c = levels_[l + 1];
    const EllipticTaskArgs a = args(v, skip_from);
    const int tiles = v.d->tiles();
    for (int t = 0; t < tiles; ++t)
      insert_mg_jacobi_first(a, w, v.coef->handle(), state, rhs(l).handle(t), v.a->handle(t), kPrioBody);
    submit_halo_exchange(*v.d, *v.a, *v.strips);
    for (int t = 0; t < tiles; ++t)
      insert_mg_restrict_residual(a, c.d->layout(), v.coef->handle(), state, rhs(l).handle(t), v.a->handle(t),
                                  c.r->handle(t), kPrioBody);
  }
  // Coarsest: Jacobi sweeps from zero, alternating between a and the result so that the last lands there.
  {
    const Level& v = levels_[last];
    const EllipticTaskArgs a = args(v, skip_from);
    const int sweeps = std::max(1, s_.coarse_sweeps);
    const TiledField* buf[2] = {v.a.get(), &result(last)};
    int cur = sweeps % 2;  // after `sweeps` writes, cur is 1 (the result)
    for (int t = 0; t < v.d->tiles(); ++t)
      insert_mg_jacobi_first(a, w, v.coef->handle(), state, rhs(last).handle(t), buf[cur]->handle(t), kPrioBody);
    for (int n = 1; n < sweeps; ++n, cur ^= 1) {
      submit_halo_exchange(*v.d, *buf[cur], *v.strips);
      for (int t = 0; t < v.d->tiles(); ++t)
        insert_mg_jacobi(a, w, v.coef->handle(), state, rhs(last).handle(t), buf[cur]->handle(t),
                         buf[cur ^ 1]->handle(t), kPrioBody);
    }
  }
  // Up: add the coarse correction, then the same sweep as on the way down.
  for (int l = last - 1; l >= 0; --l) {
    const Level& v = levels_[l];
    const Level& c = levels_[l + 1];
    const EllipticTaskArgs a = args(v, skip_from);
    const int tiles = v.d->tiles();
    for (int t = 0; t < tiles; ++t)
      insert_mg_prolong_add(a, c.d->layout(), state, result(l + 1).handle(t), v.a->handle(t), kPrioBody);
    submit_halo_exchange(*v.d, *v.a, *v.strips);
    for (int t = 0; t < tiles; ++t)
      insert_mg_jacobi(a, w, v.coef->handle(), state, rhs(l).handle(t), v.a->handle(t), result(l).handle(t),
                       kPrioBody);
  }
}

}  // namespace tdc
