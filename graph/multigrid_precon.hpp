// A geometric multigrid V-cycle on the tiles, as the preconditioner of PCG for laplc (the pressure
// problem of the dynamical core): iteration counts that grow far more slowly with the grid than the
// vertical line preconditioner's (~N/3 for the isotropic laplc: 73 per step at 256^3, against 7), though
// not flat (piecewise-constant prolongation: 7, 14, 19 at 16^3..64^3 for a Poisson solve to 1e-10).
//
// Levels halve the grid in x, y and z, keeping the tile grid (a tile's coarse cells come from its own
// fine cells, so restriction and prolongation need no communication). The number of levels depends
// on the global grid only, never on the tiling, so the iteration history stays bitwise independent of
// tile layout and rank count. Kernels and the coarsening rule: codelets/multigrid/multigrid_kernel.hpp.
#pragma once
#include <algorithm>
#include <memory>
#include <vector>

#include "../codelets/column_operator/column_operator.hpp"
#include "../codelets/multigrid/multigrid_vcycle.hpp"
#include "../codelets/solver_scalars/solver_scalars_kernel.hpp"
#include "runtime/tiled_field.hpp"

namespace tdc {

struct MultigridSettings {
  int levels = 0;         // grids in the hierarchy, the model's included; 0: as many as the grid allows
  int coarse_sweeps = 2;  // damped Jacobi sweeps on the coarsest grid (more gain nothing: measured at 64^3)
  double omega = 0.9;     // Jacobi damping, one sweep before and one after (0.7: 9 PCG iterations at 64^3, 0.9: 6-7)
  bool one_task = true;   // a single tile's whole cycle as one task (mg_vcycle); false: a task per operation
  // On several tiles, the first coarse level of at most this many cells and the levels below it run
  // as one cycle on one device (gathered from the tiles, scattered back): small levels cost their
  // tasks' latency, not their work (2 GPUs, bubble 256 x 512 x 256: 18.4-19.4 ms/step at 32768,
  // 15.2-15.4 at 2^20, 14.7 at 2^23; docs/performance.md). 0: every level stays on the tiles.
  long whole_cells = 1 << 20;
};

// The operator on one level: its grid and laplc's couplings and level coefficients there.
struct OperatorLevel {
  Grid grid;
  ColumnCouplings couplings;
  std::vector<double> coefficients;
};

// The most levels a grid allows: each coarsening needs every dimension a multiple of 4 (so that the
// coarse grid's interleaved lattices are whole).
int multigrid_max_levels(const Grid& g);
// The default: coarsen while allowed and the coarse grid keeps at least 8 cells per direction.
int multigrid_auto_levels(const Grid& g);
// Whether `tiles` tiles across `n` cells can hold `levels` levels: whole tiles on every level, widths a
// multiple of 4 on every level but the coarsest (coarsening stays inside a tile), and >= 2 (the halo).
bool multigrid_tiles_fit(int n, int tiles, int levels);

class MultigridPreconditioner {
 public:
  // `fine`: the solver's decomposition, on ops[0].grid; ops[l]: the operator of level l.
  MultigridPreconditioner(const Decomposition& fine, int rank, const std::vector<OperatorLevel>& ops,
                          const MultigridSettings& s);
  ~MultigridPreconditioner();
  MultigridPreconditioner(const MultigridPreconditioner&) = delete;
  MultigridPreconditioner& operator=(const MultigridPreconditioner&) = delete;

  // z = M^{-1} r by one V(1,1)-cycle, as tasks; r is read (interior only), z written (interior). Every
  // task returns at once when the solver state says done >= skip_from.
  void submit(starpu_data_handle_t state, int skip_from, const TiledField& r, const TiledField& z) const;
  // The fused PCG's whole preconditioner step, r <- r - alpha q, z = M^{-1} r and the partials of
  // <r, r>, <r, z> (dot_partial's), as the one mg_pcg_precon task. Only when one_task().
  // then: the solver_scalars step folded into the task (null: the caller submits it).
  void submit_pcg_precon(starpu_data_handle_t state, int skip_from, const TiledField& q, const TiledField& r,
                         const TiledField& z, starpu_data_handle_t dot_scratch, starpu_data_handle_t partials,
                         const ScalarsArgs* then = nullptr) const;
  int levels() const { return int(levels_.size()); }
  // Tasks one V-cycle submits per tile, at most (for the submission window): a level on the tiles
  // takes two sweeps, a restriction, a prolongation and two unpacks (the sweep and the prolongation
  // pack their strips themselves).
  int tasks_per_tile() const {
    if (one_task_) return 1;
    if (whole_from_ < levels()) return 6 * whole_from_ + 3;  // + a gather, the whole cycle, a scatter
    return 6 * (levels() - 1) + 1 + 3 * (std::max(1, s_.coarse_sweeps) - 1);
  }
  // The first level that runs whole on one device (levels() where none does).
  int whole_from() const { return whole_from_; }
  // Whether each cycle is the one mg_vcycle task (a single tile and MultigridSettings::one_task).
  bool one_task() const { return one_task_; }

 private:
  struct Level {
    std::unique_ptr<Decomposition> own;  // coarse levels; level 0 uses the solver's
    const Decomposition* d = nullptr;
    ColumnCouplings h;
    std::unique_ptr<RankZeroVector> coef;
    std::unique_ptr<TileStrips> strips;
    std::unique_ptr<TiledField> r, a, z;  // restricted residual, smoothed iterate, result (level 0: a only)
  };
  struct TaskOps;  // vcycle_schedule's operations as tasks on every tile
  EllipticTaskArgs args(const Level& l, int skip_from) const { return EllipticTaskArgs{l.d->layout(), l.h, skip_from}; }
  std::vector<Level> levels_;
  MultigridSettings s_;
  // The levels from whole_from_ on, as one cycle on one tile holding the whole level (its
  // decompositions, and that level's right-hand side and result there).
  int whole_from_ = 0;
  std::vector<std::unique_ptr<Decomposition>> whole_;
  std::unique_ptr<TiledField> whole_r_, whole_z_;
  void submit_whole_cycle(starpu_data_handle_t state, int skip_from) const;
  // The one-task cycle (of every level, or of those from whole_from_ on): its plan, their
  // coefficients in one vector, and its scratch.
  bool one_task_ = false;
  VcyclePlan plan_;
  std::unique_ptr<RankZeroVector> coef_all_;
  std::unique_ptr<ScratchBuffer> scratch_;
};

}  // namespace tdc
