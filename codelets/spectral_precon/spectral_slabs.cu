#include "../common/strided_copy.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "spectral_precon_kernel.hpp"
#include "spectral_slabs.hpp"
#include "spectral_slabs_copies.hpp"

namespace tdc {
namespace {

// The copies in launches of kMaxCopies; none runs when the state says done >= skip_from.
void run_cuda(const std::vector<StridedCopy>& copies, const SpectralPlan& p, const double* st, cudaStream_t stream) {
  CopyList list;
  for (const StridedCopy& c : copies) {
    list.add(c);
    if (list.n == kMaxCopies) {
      strided_copies_cuda(list, stream, st + state::kDone, double(p.skip_from));
      list.n = 0;
    }
  }
  strided_copies_cuda(list, stream, st + state::kDone, double(p.skip_from));
}

}  // namespace

void spectral_pack_tile_cuda(const SlabGeometry& g, const SpectralPlan& p, const double* st, const TileLayout& L,
                             const double* tile, double* const* pieces, cudaStream_t stream) {
  run_cuda(tile_piece_copies(g, L, const_cast<double*>(tile), pieces, true), p, st, stream);
}

void spectral_slab_step_cuda(const SpectralPlan& slab, const SlabGeometry& g, int s, const double* tab,
                             const double* st, SlabPasses passes, const double* const* in, double* scratch,
                             double* const* out, cudaStream_t stream) {
  run_cuda(slab_piece_copies(g, s, scratch, const_cast<double* const*>(in), false), slab, st, stream);
  const SpectralView v = slab_view(g, scratch);
  spectral_passes_cuda(slab, tab, st,
                       passes == SlabPasses::Forward ? SpectralPasses::Horizontal : SpectralPasses::HorizontalBack, v,
                       v, stream);
  run_cuda(slab_piece_copies(g, s, scratch, out, true), slab, st, stream);
}

void spectral_column_step_cuda(const SpectralPlan& column, const SlabGeometry& g, const double* tab, const double* st,
                               const double* const* in, double* scratch, double* const* out, cudaStream_t stream) {
  run_cuda(column_piece_copies(g, scratch, const_cast<double* const*>(in), false), column, st, stream);
  const SpectralView v = column_view(g, scratch);
  spectral_passes_cuda(column, tab, st, SpectralPasses::Vertical, v, v, stream);
  run_cuda(column_piece_copies(g, scratch, out, true), column, st, stream);
}

void spectral_unpack_tile_cuda(const SlabGeometry& g, const SpectralPlan& p, const double* st,
                               const double* const* pieces, const TileLayout& L, double* tile, cudaStream_t stream) {
  run_cuda(tile_piece_copies(g, L, tile, const_cast<double* const*>(pieces), false), p, st, stream);
}

}  // namespace tdc
