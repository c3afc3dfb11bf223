// The spectral preconditioner of PCG: z = A^{-1} r exactly (to round-off) for a horizontally
// homogeneous operator, laplc on a uniform, horizontally periodic grid with periodic or rigid-lid
// vertical boundaries (the dynamical core's pressure problem, stratified and anelastic too): where
// the level coefficients are constant, Hartley transforms along the vertical cycles and x and a
// direct solve of each mode's chains along y (codelets/spectral_precon/spectral_formulae.hpp,
// spectral_chain_solve.hpp); where they vary with height, transforms along x and y and a direct
// solve of each horizontal mode's cycles (spectral_column_solve.hpp). PCG then stops after one
// iteration.
//
// A single tile is solved as one task on its own arrays. Several tiles are never gathered
// (codelets/spectral_precon/spectral_slabs.hpp): tiles 1 x G (G a power of two) of a transform
// operator solve their parts of the chains along y and exchange only the chains' ends; otherwise the
// passes run on the tiles and on slabs (one per tile where the grid allows, each held with a tile),
// and transposes move pieces between them: two a solve where tiles span x or the vertical operator
// is a transform, else four. Each line pair is transformed whole and each chain solved by the same
// tree of joins, so the iteration history is bitwise the same for every tile layout, slab count and
// rank count, and the work spreads over the tiles' devices.
#pragma once
#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../codelets/column_operator/column_operator.hpp"
#include "../codelets/common/send_ahead.hpp"
#include "../codelets/solver_scalars/solver_scalars_kernel.hpp"
#include "../codelets/spectral_precon/spectral_formulae.hpp"
#include "../codelets/spectral_precon/spectral_slabs.hpp"
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
  int tasks_per_tile() const;

  // Chunks of the column flow (spectral_slabs.hpp): TASKDYCORE_SPECTRAL_CHUNKS, else kDefaultChunks.
  // 2, not 4: a quarter of a 4-GPU slab's y pass (2048 line pairs of 1024 points) fills an H100's
  // shared memory 1.3 times (12 such pairs an SM), so its second wave ran a third full; halves run
  // 2.6 waves, and the 4-GPU steps took 2-7 % less (docs/performance.md). In the transform-first
  // order 4 chunks were no faster either.
  static constexpr int kDefaultChunks = 2;
  static int spectral_chunks();
  // Split chains where the tiles allow (spectral_slabs.hpp): TASKDYCORE_SPECTRAL_SPLIT_CHAINS "on"
  // (the default) or "off" (the column slabs' transposes instead: the same bits, for comparison).
  static bool split_chains_allowed();

 private:
  // Pieces of the transposes in chunk c, piece (t, s, c) at (t * slabs + s) * chunks + c: those the
  // tiles write (held with them) and those the slabs write (held with the slabs' tiles).
  starpu_data_handle_t piece(const TileHeldVectors& v, int t, int s, int c) const;
  std::vector<starpu_data_handle_t> pieces(const TileHeldVectors& v, int t, int s, int c) const;
  int slab_host_tile(int s) const;  // the tile slab s is held with
  // Whether the stage's task waits for the previous chunk's and reads pieces from elsewhere, so that
  // a fetch-ahead task moves them as soon as they are written.
  bool waits_for_remote_chunk(const SpectralStage& s) const;
  // The copies that stage n's task on tile or slab i, chunk c, starts as it ends (its pieces
  // `out`, toward their readers), or null (send_ahead.hpp).
  const SendAhead* sends_of(int n, int i, int c, bool on_slab, const std::vector<starpu_data_handle_t>& out,
                            const TiledField& r) const;

  const Decomposition& d_;
  SpectralPlan plan_;
  SlabGeometry slabs_;
  std::unique_ptr<RankZeroVector> tables_;
  std::unique_ptr<TileHeldVectors> to_slabs_, from_slabs_;  // several tiles with slabs
  std::unique_ptr<TileHeldVectors> chain_exchange_;         // split chains: a tile's ends (spectral_chain_pass.hpp)
  std::unique_ptr<TileHeldVectors> slab_buffers_, tile_buffers_;  // the column flow's, one a slab or tile
  std::unique_ptr<ScratchBuffer> slab_scratch_, tile_scratch_;
  bool send_ahead_ = false;
  mutable std::map<std::array<int, 3>, SendAhead> sends_;  // by (stage, tile or slab, chunk)
};

}  // namespace tdc
