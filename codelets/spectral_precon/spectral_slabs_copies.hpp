// The copies and plans of the slab form's stages (spectral_slabs.hpp), built on the host for the CPU
// and CUDA stages alike.
#pragma once
#include <vector>

#include "../common/strided_copy.hpp"
#include "spectral_chain_pass.hpp"
#include "spectral_slabs.hpp"

namespace tdc {

// A stage's work as its parts: copies into the work array (the slab's buffer, else the scratch array;
// or straight from in to out when the stage runs no pass), the passes' plan, and copies out of it.
// The first pass reads the tile itself where the stage starts from one, the last writes into the tile
// where it ends in one, and both read and write the pieces where they lie when these split the pass's
// axis (column slabs, up to kMaxPassPieces of them): no copies then.
struct StageWork {
  std::vector<StridedCopy> gather, scatter;  // gather only, when there are no passes
  SpectralPlan plan;
  PassView first_in{}, last_out{};  // the first pass's input, the last one's output
  SpectralView work{};              // the work array (the slab's buffer or the scratch array)
  ChainExchange chains{};           // split chains: the exchange vectors and the null chains' scratch
};
StageWork stage_work(const SpectralPlan& p, const SlabGeometry& g, const SpectralStage& s, const double* const* in,
                     double* scratch, double* buffer, double* const* out);

}  // namespace tdc
