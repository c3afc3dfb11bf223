// The spectral preconditioner on a field split into tiles of whole columns, without gathering it: the
// x and y passes run on slabs of whole levels, the vertical pass on each tile's columns, and
// transposes between the two move only pieces (tile t's part of slab s). Every line pair is still
// transformed whole by one task with the single-array arithmetic, so z is bitwise the same for any
// tile layout, slab count and rank count. Plain CPU and CUDA, no StarPU.
//
// A solve is five steps: pack r's tiles into pieces; per slab, gather its pieces, x and y passes,
// scatter into pieces; per tile, gather its pieces (its whole columns), the vertical pass with the
// symbol, scatter; per slab, gather, y and x passes, scatter; unpack the pieces into z's tiles.
#pragma once
#include "../common/tile_layout.hpp"
#include "spectral_formulae.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

constexpr int kMaxSlabPieces = 256;  // tiles per slab and slabs per tile (pointers pass by value)

// Tiles tiles_x x tiles_y of nxt x nyt x nz cells (tile t at (t % tiles_x, t / tiles_x)), and
// `slabs` slabs of whole levels. Piece (t, s) holds tile t's interior on slab s's levels, x fastest.
struct SlabGeometry {
  int tiles_x = 1, tiles_y = 1, nxt = 0, nyt = 0, nz = 0, slabs = 1;
  int tiles() const { return tiles_x * tiles_y; }
  int slab_begin(int s) const { return int(long(s) * nz / slabs); }
  int slab_levels(int s) const { return slab_begin(s + 1) - slab_begin(s); }
  long piece_doubles(int s) const { return long(nxt) * nyt * slab_levels(s); }
  long slab_doubles(int s) const { return long(nxt) * tiles_x * nyt * tiles_y * slab_levels(s); }
  long column_doubles() const { return long(nxt) * nyt * nz; }
};

// The plan of slab s's x and y passes, and of tile t's vertical pass (its modes offset to its origin).
SpectralPlan slab_plan(const SpectralPlan& whole, const SlabGeometry& g, int s);
SpectralPlan column_plan(const SpectralPlan& whole, const SlabGeometry& g, int t);

// Which direction a slab step transforms: forward (x then y) or back (y then x).
enum class SlabPasses { Forward, Back };

// Every step returns at once when the state says done >= p.skip_from (p: any of the plans).
// pieces[s]: tile t's piece of slab s (tile <-> pieces), or pieces[t]: tile t's piece of this slab.
void spectral_pack_tile_cpu(const SlabGeometry& g, const SpectralPlan& p, const double* st, const TileLayout& L,
                            const double* tile, double* const* pieces);
void spectral_slab_step_cpu(const SpectralPlan& slab, const SlabGeometry& g, int s, const double* tab, const double* st,
                            SlabPasses passes, const double* const* in, double* scratch, double* const* out);
void spectral_column_step_cpu(const SpectralPlan& column, const SlabGeometry& g, const double* tab, const double* st,
                              const double* const* in, double* scratch, double* const* out);
void spectral_unpack_tile_cpu(const SlabGeometry& g, const SpectralPlan& p, const double* st,
                              const double* const* pieces, const TileLayout& L, double* tile);
#if defined(TASKDYCORE_HAVE_CUDA)
void spectral_pack_tile_cuda(const SlabGeometry& g, const SpectralPlan& p, const double* st, const TileLayout& L,
                             const double* tile, double* const* pieces, cudaStream_t stream);
void spectral_slab_step_cuda(const SpectralPlan& slab, const SlabGeometry& g, int s, const double* tab,
                             const double* st, SlabPasses passes, const double* const* in, double* scratch,
                             double* const* out, cudaStream_t stream);
void spectral_column_step_cuda(const SpectralPlan& column, const SlabGeometry& g, const double* tab, const double* st,
                               const double* const* in, double* scratch, double* const* out, cudaStream_t stream);
void spectral_unpack_tile_cuda(const SlabGeometry& g, const SpectralPlan& p, const double* st,
                               const double* const* pieces, const TileLayout& L, double* tile, cudaStream_t stream);
#endif

}  // namespace tdc
