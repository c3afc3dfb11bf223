#include "spectral_slabs.hpp"

#include "../common/strided_copy.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "spectral_precon_kernel.hpp"
#include "spectral_slabs_copies.hpp"

namespace tdc {

SpectralPlan slab_plan(const SpectralPlan& whole, const SlabGeometry& g, int s) {
  SpectralPlan p = whole;
  p.nz = g.slab_levels(s);  // the x and y passes never read the vertical tables
  return p;
}

SpectralPlan column_plan(const SpectralPlan& whole, const SlabGeometry& g, int t) {
  SpectralPlan p = whole;
  p.nx = g.nxt;
  p.ny = g.nyt;
  p.bx = spectral_log2(g.nxt);
  p.by = spectral_log2(g.nyt);
  p.m0 = (t % g.tiles_x) * g.nxt;
  p.n0 = (t / g.tiles_x) * g.nyt;
  return p;
}

std::vector<StridedCopy> tile_piece_copies(const SlabGeometry& g, const TileLayout& L, double* tile,
                                           double* const* pieces, bool to_pieces) {
  std::vector<StridedCopy> list;
  for (int s = 0; s < g.slabs; ++s) {
    StridedCopy c;
    c.src = to_pieces ? tile : pieces[s];
    c.dst = to_pieces ? pieces[s] : tile;
    std::ptrdiff_t& tile_offset = to_pieces ? c.src_offset : c.dst_offset;
    tile_offset = L.at(0, 0, g.slab_begin(s));
    (to_pieces ? c.src_row : c.dst_row) = L.sx();
    (to_pieces ? c.src_plane : c.dst_plane) = L.plane();
    (to_pieces ? c.dst_row : c.src_row) = g.nxt;
    (to_pieces ? c.dst_plane : c.src_plane) = std::ptrdiff_t(g.nxt) * g.nyt;
    c.w = g.nxt;
    c.h = g.nyt;
    c.nz = g.slab_levels(s);
    list.push_back(c);
  }
  return list;
}

std::vector<StridedCopy> slab_piece_copies(const SlabGeometry& g, int s, double* slab, double* const* pieces,
                                           bool to_pieces) {
  const std::ptrdiff_t row = std::ptrdiff_t(g.nxt) * g.tiles_x, plane = row * g.nyt * g.tiles_y;
  std::vector<StridedCopy> list;
  for (int t = 0; t < g.tiles(); ++t) {
    StridedCopy c;
    c.src = to_pieces ? slab : pieces[t];
    c.dst = to_pieces ? pieces[t] : slab;
    (to_pieces ? c.src_offset : c.dst_offset) = (t % g.tiles_x) * g.nxt + row * (t / g.tiles_x) * g.nyt;
    (to_pieces ? c.src_row : c.dst_row) = row;
    (to_pieces ? c.src_plane : c.dst_plane) = plane;
    (to_pieces ? c.dst_row : c.src_row) = g.nxt;
    (to_pieces ? c.dst_plane : c.src_plane) = std::ptrdiff_t(g.nxt) * g.nyt;
    c.w = g.nxt;
    c.h = g.nyt;
    c.nz = g.slab_levels(s);
    list.push_back(c);
  }
  return list;
}

std::vector<StridedCopy> column_piece_copies(const SlabGeometry& g, double* column, double* const* pieces,
                                             bool to_pieces) {
  std::vector<StridedCopy> list;
  for (int s = 0; s < g.slabs; ++s) {
    StridedCopy c;  // the pieces in level order are the column array: contiguous runs
    c.src = to_pieces ? column : pieces[s];
    c.dst = to_pieces ? pieces[s] : column;
    (to_pieces ? c.src_offset : c.dst_offset) = std::ptrdiff_t(g.nxt) * g.nyt * g.slab_begin(s);
    c.w = int(g.piece_doubles(s));
    c.h = c.nz = 1;
    list.push_back(c);
  }
  return list;
}

SpectralView slab_view(const SlabGeometry& g, double* slab) {
  const long row = long(g.nxt) * g.tiles_x;
  return SpectralView{slab, row, row * g.nyt * g.tiles_y};
}
SpectralView column_view(const SlabGeometry& g, double* column) {
  return SpectralView{column, g.nxt, long(g.nxt) * g.nyt};
}

namespace {

void run_cpu(const std::vector<StridedCopy>& copies) {
  CopyList list;
  for (const StridedCopy& c : copies) {
    list.add(c);
    if (list.n == kMaxCopies) {
      strided_copies_cpu(list);
      list.n = 0;
    }
  }
  strided_copies_cpu(list);
}

}  // namespace

void spectral_pack_tile_cpu(const SlabGeometry& g, const SpectralPlan& p, const double* st, const TileLayout& L,
                            const double* tile, double* const* pieces) {
  if (solver_skips(st, p.skip_from)) return;
  run_cpu(tile_piece_copies(g, L, const_cast<double*>(tile), pieces, true));
}

void spectral_slab_step_cpu(const SpectralPlan& slab, const SlabGeometry& g, int s, const double* tab, const double* st,
                            SlabPasses passes, const double* const* in, double* scratch, double* const* out) {
  if (solver_skips(st, slab.skip_from)) return;
  run_cpu(slab_piece_copies(g, s, scratch, const_cast<double* const*>(in), false));
  const SpectralView v = slab_view(g, scratch);
  spectral_passes_cpu(
      slab, tab, st, passes == SlabPasses::Forward ? SpectralPasses::Horizontal : SpectralPasses::HorizontalBack, v, v);
  run_cpu(slab_piece_copies(g, s, scratch, out, true));
}

void spectral_column_step_cpu(const SpectralPlan& column, const SlabGeometry& g, const double* tab, const double* st,
                              const double* const* in, double* scratch, double* const* out) {
  if (solver_skips(st, column.skip_from)) return;
  run_cpu(column_piece_copies(g, scratch, const_cast<double* const*>(in), false));
  const SpectralView v = column_view(g, scratch);
  spectral_passes_cpu(column, tab, st, SpectralPasses::Vertical, v, v);
  run_cpu(column_piece_copies(g, scratch, out, true));
}

void spectral_unpack_tile_cpu(const SlabGeometry& g, const SpectralPlan& p, const double* st,
                              const double* const* pieces, const TileLayout& L, double* tile) {
  if (solver_skips(st, p.skip_from)) return;
  run_cpu(tile_piece_copies(g, L, tile, const_cast<double* const*>(pieces), false));
}

}  // namespace tdc
