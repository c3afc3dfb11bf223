// The spectral preconditioner of PCG: z = A^{-1} r exactly (to round-off) for a separable operator,
// laplc on a uniform, horizontally periodic grid with periodic or rigid-lid vertical boundaries (the
// dynamical core's pressure problem), by Hartley transforms along x, y and the vertical cycles
// (codelets/spectral_precon/spectral_formulae.hpp). PCG then stops after one iteration.
//
// A single tile is solved as one task on its own arrays; several tiles are gathered into one dense
// array (owned by rank 0), solved there and scattered back: the same arithmetic on the same numbers,
// so the iteration history is bitwise the same for every tile layout and rank count. (The gather is
// a global transpose: it serialises the solve on one worker, which is the price of this exactness.)
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "../codelets/column_operator/column_operator.hpp"
#include "../codelets/solver_scalars/solver_scalars_kernel.hpp"
#include "../codelets/spectral_precon/spectral_formulae.hpp"
#include "runtime/tiled_field.hpp"

namespace tdc {

class SpectralPreconditioner {
 public:
  // `coef`: the operator's kLevelVectors * nz level coefficients; throws std::invalid_argument when the
  // operator is not one the transforms invert (spectral_unsupported says why).
  SpectralPreconditioner(const Decomposition& d, int rank, const ColumnCouplings& h, const std::vector<double>& coef);
  ~SpectralPreconditioner();
  SpectralPreconditioner(const SpectralPreconditioner&) = delete;
  SpectralPreconditioner& operator=(const SpectralPreconditioner&) = delete;

  // z = M r (interiors); every task returns at once when the state says done >= skip_from.
  void submit(starpu_data_handle_t state, int skip_from, const TiledField& r, const TiledField& z) const;
  // The fused PCG's preconditioner step as one task (single tile only; see one_task()).
  void submit_pcg_precon(starpu_data_handle_t state, int skip_from, const TiledField& q, const TiledField& r,
                         const TiledField& z, starpu_data_handle_t dot_scratch, starpu_data_handle_t partials,
                         const ScalarsArgs* then = nullptr) const;
  bool one_task() const { return d_.tiles() == 1; }
  int tasks_per_tile() const { return one_task() ? 1 : 3; }

 private:
  const Decomposition& d_;
  SpectralPlan plan_;
  std::unique_ptr<RankZeroVector> tables_;
  std::unique_ptr<RankZeroVector> dense_;  // several tiles only
};

}  // namespace tdc
