// spectral_precon: z = A^{-1} r for a horizontally homogeneous column operator (spectral_formulae.hpp),
// plain CPU and CUDA, no StarPU. Five passes (solve_passes_of): where the vertical operator is a
// transform, line-pair Hartley transforms along the vertical cycles (r -> z) and x, the direct solve
// of each mode's chains along y (spectral_chain_solve.hpp), x and the cycles again; else transforms
// along x (r -> z) and y, a direct solve of each vertical cycle per horizontal mode
// (spectral_column_solve.hpp), y and x.
#pragma once
#include <string>
#include <vector>

#include "../column_operator/column_operator.hpp"
#include "spectral_chain_pass.hpp"
#include "spectral_formulae.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

// Why the operator of a domain of nx x ny x nz cells has no spectral inverse here ("" when it has):
// the horizontal couplings must be symmetric, d nonzero on every level, the vertical rule periodic or
// mirror, nx and ny powers of two from 2 to kMaxSpectralLength, the vertical cycles to
// kMaxSpectralCycle. Level vectors that vary with height, or unequal up and down couplings, take the
// direct vertical solve.
std::string spectral_unsupported(int nx, int ny, int nz, const ColumnCouplings& h, const std::vector<double>& coef);
// The plan and its tables (twiddles, per-axis eigenvalues, cycle levels); throws std::invalid_argument
// with spectral_unsupported's reason.
SpectralPlan make_spectral_plan(int nx, int ny, int nz, const ColumnCouplings& h, const std::vector<double>& coef,
                                std::vector<double>& tables);

// A tile's interior as a view (the tile is the whole domain).
inline SpectralView tile_view(const TileLayout& L, const double* a) {
  return SpectralView{const_cast<double*>(a) + L.at(0, 0, 0), L.sx(), long(L.plane())};
}

// One pass (a SpectralPass), in -> out (in may be out). Along x and y the views may be pieces split
// along that axis; the vertical passes take whole arrays. The split chain passes (kPassYChainUp,
// kPassYChainDown) run in place on a whole array, with the parts' exchange `x`.
void spectral_pass_cpu(const SpectralPlan& p, const double* tab, int pass, PassView in, PassView out,
                       const ChainExchange* x = nullptr);

// z = M r (r is read, z written; may not alias); returns at once when the state says done >= skip_from.
void spectral_solve_cpu(const SpectralPlan& p, const double* tab, const double* st, SpectralView r, SpectralView z);
// The fused PCG's preconditioner step on a tile that is the whole domain: r <- r - alpha q, z = M r,
// and dot_partial's partials of <r, r>, <r, z> and max |r| into `out`. When <r, r> and max |r| already
// stop the solve (or it is done), the solve and <r, z> are skipped, z left as it was and the sum
// slot of <r, z> holds <r, r>: the scalars step stops on <r, r> and nothing reads z again
// (out[kSolveSkippedAt] says which).
void spectral_pcg_precon_cpu(const SpectralPlan& p, const TileLayout& L, const double* tab, const double* st,
                             const double* q, double* r, double* z, double* out);
#if defined(TASKDYCORE_HAVE_CUDA)
// The pass returns at once when the state says done >= skip_from.
void spectral_pass_cuda(const SpectralPlan& p, const double* tab, const double* st, int pass, PassView in, PassView out,
                        cudaStream_t stream, const ChainExchange* x = nullptr);
void spectral_solve_cuda(const SpectralPlan& p, const double* tab, const double* st, SpectralView r, SpectralView z,
                         cudaStream_t stream);
// groups: dot_partial's device scratch.
void spectral_pcg_precon_cuda(const SpectralPlan& p, const TileLayout& L, const double* tab, const double* st,
                              const double* q, double* r, double* z, void* groups, double* out, cudaStream_t stream);
#endif

}  // namespace tdc
