// The spectral preconditioner on a field split into tiles of whole columns, without gathering it.
// The passes run on parts of the field that hold their lines whole (tiles hold whole columns, slabs
// whole x or y lines), and transposes move only pieces (tile t's part of slab s) between them. Every
// line pair is still transformed whole by one task with the single-array arithmetic and every line
// meets the passes in the one-array solve's order (solve_passes_of), so z is bitwise the same for any
// tile layout, slab count, chunk count and rank count. Plain CPU and CUDA, no StarPU.
//
// Where the vertical operator is a transform (the solve's order: vertical, x, the chains along y, x,
// vertical), the tiles run the vertical passes, and the slabs need no whole columns:
// - tiles 1 x G, G a power of two up to kMaxChainParts (split_chains): no slabs. Tile: vertical, x
//   and the chains' way up into the tile's buffer, the chains' ends into its exchange vector; tile:
//   from every tile's exchange vector, the chains' way down, x and vertical into z. The tiles
//   exchange two numbers a chain (spectral_chain_pass.hpp) instead of transposing the field.
// - other tiles spanning x (tiles_x == 1): slabs of whole y columns (x ranges). Tile: vertical pass
//   into the tile's buffer; tile: x pass, into pieces; slab: the chains, pieces into pieces; tile:
//   x pass into the buffer; tile: vertical pass into z. The three middle stages run on chunks of
//   levels (z ranges) with a piece each, so that a chunk's pieces travel while the next chunk's pass
//   runs, and nothing between the two transposes needs every chunk.
// - otherwise: slabs of whole levels. Tile: vertical pass, into pieces; slab: x, the chains, x; tile:
//   vertical pass into z.
// Where it is solved directly per horizontal mode (x, y, the vertical solve, y, x):
// - tiles span x: tile: x pass, into pieces; slab: y pass into the slab's buffer; slab: the vertical
//   solve; slab: y pass, into pieces; tile: x pass, into z. The x and y passes run on chunks of levels.
// - otherwise: slabs of whole levels. Tile: r into pieces; slab: x, y passes; tile: vertical solve;
//   slab: y, x passes; tile: pieces into z. Four transposes a solve.
#pragma once
#include "../common/tile_layout.hpp"
#include "spectral_formulae.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

constexpr int kMaxSlabPieces = 256;  // tiles per slab and slabs per tile (pointers pass by value)

// A box of the domain's cells.
struct CellBox {
  int x0 = 0, y0 = 0, z0 = 0, w = 0, h = 0, d = 0;
  long cells() const { return long(w) * h * d; }
};

enum class SlabKind : int { Levels, Columns };

// The domain (nx x ny x nz), its tiles (tile t at (t % tiles_x, t / tiles_x), whole columns) and its
// slabs. Piece (t, s) is tile t's box within slab s, a dense array of it (x fastest).
struct SlabGeometry {
  int nx = 0, ny = 0, nz = 0, tiles_x = 1, tiles_y = 1;
  SlabKind kind = SlabKind::Levels;
  int slabs = 1;
  int chunks = 1;  // z ranges of the column flow's x and y passes (divides nz)
  bool vertical_transform = false;  // the plan's vertical operator is a transform: the tiles run it
  // Tiles 1 x G split each chain along y into G aligned parts: two tile stages, no slabs.
  bool split_chains = false;
  int tiles() const { return tiles_x * tiles_y; }
  CellBox tile(int t) const {
    const int w = nx / tiles_x, h = ny / tiles_y;
    return CellBox{(t % tiles_x) * w, (t / tiles_x) * h, 0, w, h, nz};
  }
  CellBox slab(int s) const {
    if (kind == SlabKind::Levels) {
      const int z0 = int(long(s) * nz / slabs);
      return CellBox{0, 0, z0, nx, ny, int(long(s + 1) * nz / slabs) - z0};
    }
    return CellBox{s * (nx / slabs), 0, 0, nx / slabs, ny, nz};
  }
  CellBox piece(int t, int s) const {
    const CellBox a = tile(t), b = slab(s);
    const int x0 = a.x0 > b.x0 ? a.x0 : b.x0, y0 = a.y0 > b.y0 ? a.y0 : b.y0, z0 = a.z0 > b.z0 ? a.z0 : b.z0;
    const int x1 = (a.x0 + a.w < b.x0 + b.w ? a.x0 + a.w : b.x0 + b.w);
    const int y1 = (a.y0 + a.h < b.y0 + b.h ? a.y0 + a.h : b.y0 + b.h);
    const int z1 = (a.z0 + a.d < b.z0 + b.d ? a.z0 + a.d : b.z0 + b.d);
    return CellBox{x0, y0, z0, x1 - x0, y1 - y0, z1 - z0};
  }
  // Box b's part in chunk c (c < 0: all of it).
  CellBox in_chunk(CellBox b, int c) const {
    if (c < 0 || chunks == 1) return b;
    b.d = nz / chunks;
    b.z0 = c * b.d;
    return b;
  }
  CellBox piece(int t, int s, int c) const { return in_chunk(piece(t, s), c); }
};

// The slab geometry for a tile layout and a plan: column slabs where tiles span x, else level slabs;
// one slab per tile where the grid allows (a column slab at least 2 cells wide, a power of two);
// column slabs in `chunks` z ranges where nz allows (else fewer); split chains where they can
// (unless `split` is false).
SlabGeometry slab_geometry(const SpectralPlan& p, int tiles_x, int tiles_y, int chunks = 1, bool split = true);

// One task's work: on tile or slab `index` (within z chunk `chunk`, or whole when -1), read the tile
// (r), the part's buffer or its pieces, run `passes` (SpectralPass, in order) and write the pieces,
// the buffer or the tile (z).
struct SpectralStage {
  bool on_slab = false;
  int index = 0, chunk = -1;
  bool from_tile = false, to_tile = false;
  bool from_buffer = false, to_buffer = false;
  int passes[3] = {0, 0, 0};
  int n_passes = 0;
  TileLayout L;  // the tile's layout (from_tile or to_tile)
};

// The stages of one solve, in order: stage n runs on every tile (or every slab when on_slab), in
// spectral_stage_chunks of them each.
int spectral_stage_count(const SlabGeometry& g);
int spectral_stage_chunks(const SlabGeometry& g, int n);
SpectralStage spectral_stage(const SlabGeometry& g, const TileLayout& L, int n, int index, int chunk = 0);

// Whether the stage's task needs the scratch array (a part of its size): not where its one pass goes
// from the tile straight into the pieces or back.
bool stage_needs_scratch(const SlabGeometry& g, const SpectralStage& s);
// Split chains: the exchange vector's doubles a tile, and the scratch the way down needs.
long chain_exchange_doubles(const SpectralPlan& p, const SlabGeometry& g);
long chain_scratch_doubles(const SpectralPlan& p);

// The stage's work; returns at once when the state says done >= p.skip_from (p: the whole domain's
// plan). `in`/`out`: the tile (one pointer) or the part's pieces in the stage's chunk (tile t: its
// piece of every slab; slab s: every tile's piece of it, in index order), none for the buffer; with
// split chains, the tile's exchange vector (out of the first stage) and every tile's (into the
// second); `buffer`: the part's buffer (from_buffer or to_buffer), `scratch`: stage_needs_scratch's
// array (split chains: the null chains whole, chain_scratch_doubles).
void spectral_stage_cpu(const SpectralPlan& p, const SlabGeometry& g, const SpectralStage& s, const double* tab,
                        const double* st, const double* const* in, double* scratch, double* buffer,
                        double* const* out);
#if defined(TASKDYCORE_HAVE_CUDA)
void spectral_stage_cuda(const SpectralPlan& p, const SlabGeometry& g, const SpectralStage& s, const double* tab,
                         const double* st, const double* const* in, double* scratch, double* buffer,
                         double* const* out, cudaStream_t stream);
#endif

}  // namespace tdc
