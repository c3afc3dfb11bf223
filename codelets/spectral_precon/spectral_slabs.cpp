#include "spectral_slabs.hpp"

#include "../solver_scalars/solver_state.hpp"
#include "spectral_precon_kernel.hpp"
#include "spectral_slabs_copies.hpp"

namespace tdc {

SlabGeometry slab_geometry(const SpectralPlan& p, int tiles_x, int tiles_y, int chunks, bool split) {
  SlabGeometry g;
  const int nx = p.nx, ny = p.ny, nz = p.nz;
  g.nx = nx;
  g.ny = ny;
  g.nz = nz;
  g.vertical_transform = p.columns == 0;
  g.tiles_x = tiles_x;
  g.tiles_y = tiles_y;
  const int tiles = tiles_x * tiles_y;
  const int part = ny / (tiles_y > 0 ? tiles_y : 1);
  if (split && g.vertical_transform && tiles_x == 1 && tiles_y > 1 && tiles_y <= kMaxChainParts &&
      (tiles_y & (tiles_y - 1)) == 0 && part % p.hy == 0) {
    g.kind = SlabKind::Columns;
    g.split_chains = true;
    g.slabs = 0;
  } else if (tiles_x == 1) {
    g.kind = SlabKind::Columns;  // x lines are whole in the tiles: two transposes a solve
    g.slabs = 1;
    while (2 * g.slabs <= tiles && 2 * g.slabs <= kMaxSlabPieces && nx / (2 * g.slabs) >= 2) g.slabs *= 2;
    g.chunks = chunks < 1 ? 1 : chunks < nz ? chunks : nz;
    while (nz % g.chunks != 0) --g.chunks;
  } else {
    g.kind = SlabKind::Levels;
    g.slabs = tiles < nz ? tiles : nz;
    if (g.slabs > kMaxSlabPieces) g.slabs = kMaxSlabPieces;
  }
  return g;
}

int spectral_stage_count(const SlabGeometry& g) {
  if (g.split_chains) return 2;
  return g.vertical_transform && g.kind == SlabKind::Levels ? 3 : 5;
}

int spectral_stage_chunks(const SlabGeometry& g, int n) {
  if (g.kind != SlabKind::Columns || g.split_chains) return 1;
  const bool chunked = g.vertical_transform ? n >= 1 && n <= 3 : n != 2;  // not the passes on whole columns
  return chunked ? g.chunks : 1;
}

SpectralStage spectral_stage(const SlabGeometry& g, const TileLayout& L, int n, int index, int chunk) {
  SpectralStage s;
  s.index = index;
  s.L = L;
  s.from_tile = n == 0;
  s.to_tile = n == spectral_stage_count(g) - 1;
  s.chunk = spectral_stage_chunks(g, n) > 1 ? chunk : -1;
  auto set = [&](std::initializer_list<int> passes) {
    for (int a : passes) s.passes[s.n_passes++] = a;
  };
  if (g.split_chains) {
    s.to_buffer = n == 0;
    s.from_buffer = n == 1;
    if (n == 0) set({kPassZ, kPassX, kPassYChainUp});
    if (n == 1) set({kPassYChainDown, kPassX, kPassZ});
  } else if (g.vertical_transform && g.kind == SlabKind::Columns) {
    s.on_slab = n == 2;  // between the tiles' vertical and x passes, each way
    s.from_buffer = n == 1 || n == 4;
    s.to_buffer = n == 0 || n == 3;
    set({n == 0 || n == 4 ? kPassZ : n == 2 ? kPassYChain : kPassX});
  } else if (g.vertical_transform) {
    s.on_slab = n == 1;
    set(n == 1 ? std::initializer_list<int>{kPassX, kPassYChain, kPassX} : std::initializer_list<int>{kPassZ});
  } else if (g.kind == SlabKind::Columns) {
    s.on_slab = n >= 1 && n <= 3;
    s.from_buffer = n == 2 || n == 3;
    s.to_buffer = n == 1 || n == 2;
    set({n == 2 ? kPassColumns : s.on_slab ? kPassY : kPassX});
  } else {
    s.on_slab = n % 2 == 1;
    if (n == 1) set({kPassX, kPassY});
    if (n == 2) set({kPassColumns});
    if (n == 3) set({kPassY, kPassX});
  }
  return s;
}

namespace {

// A dense array or a tile seen in the domain's cell coordinates.
struct CellArray {
  double* p;
  CellBox box;
  std::ptrdiff_t origin, row, plane;  // offset of the box's first cell, strides in y and z
  std::ptrdiff_t at(int x, int y, int z) const {
    return origin + (x - box.x0) + row * (y - box.y0) + plane * (z - box.z0);
  }
};
CellArray dense(double* p, const CellBox& b) { return CellArray{p, b, 0, b.w, std::ptrdiff_t(b.w) * b.h}; }
CellArray tile_array(double* p, const CellBox& b, const TileLayout& L) {
  return CellArray{p, b, L.at(0, 0, 0), L.sx(), L.plane()};
}

// Copies region r (inside both arrays) from a to b.
StridedCopy copy(const CellArray& a, const CellArray& b, const CellBox& r) {
  StridedCopy c;
  c.src = a.p;
  c.src_offset = a.at(r.x0, r.y0, r.z0);
  c.src_row = a.row;
  c.src_plane = a.plane;
  c.dst = b.p;
  c.dst_offset = b.at(r.x0, r.y0, r.z0);
  c.dst_row = b.row;
  c.dst_plane = b.plane;
  c.w = r.w;
  c.h = r.h;
  c.nz = r.d;
  return c;
}

// The arrays a stage reads or writes: the tile, the slab's buffer, or the part's pieces in its chunk.
std::vector<CellArray> ends(const SlabGeometry& g, const SpectralStage& s, bool tile, bool buffer, double* const* p) {
  if (tile) return {tile_array(p[0], g.tile(s.index), s.L)};
  if (buffer) return {};
  std::vector<CellArray> a;
  const int n = s.on_slab ? g.tiles() : g.slabs;
  for (int i = 0; i < n; ++i)
    a.push_back(dense(p[i], s.on_slab ? g.piece(i, s.index, s.chunk) : g.piece(s.index, i, s.chunk)));
  return a;
}

// An array seen from the part's first cell.
SpectralView view_at(const CellArray& a, const CellBox& part) {
  return SpectralView{a.p + a.at(part.x0, part.y0, part.z0), a.row, a.plane};
}

// The part's pieces as one view of its first or last pass, where that pass runs along the axis the
// pieces split (column slabs: a tile's pieces split x, a slab's split y) and they are few enough.
bool pieces_in_view(const SlabGeometry& g, const SpectralStage& s) {
  return g.kind == SlabKind::Columns && s.n_passes > 0 && (s.on_slab ? g.tiles() : g.slabs) <= kMaxPassPieces;
}
PassView pieces_view(const std::vector<CellArray>& pieces, bool on_slab) {
  PassView v;
  for (std::size_t i = 0; i < pieces.size(); ++i) v.p[i] = pieces[i].p;
  const CellBox& b = pieces[0].box;  // every piece of a part has its shape
  v.sx = b.w;
  v.plane = long(b.w) * b.h;
  v.bits = spectral_log2(on_slab ? b.h : b.w);
  return v;
}

}  // namespace

bool stage_needs_scratch(const SlabGeometry& g, const SpectralStage& s) {
  if (g.split_chains) return s.n_passes > 0 && s.passes[0] == kPassYChainDown;
  if (s.n_passes == 0 || s.from_buffer || s.to_buffer) return false;
  const bool ends_direct = (s.from_tile || pieces_in_view(g, s)) && (s.to_tile || pieces_in_view(g, s));
  return !ends_direct || s.n_passes > 1;
}

StageWork stage_work(const SpectralPlan& p, const SlabGeometry& g, const SpectralStage& s, const double* const* in,
                     double* scratch, double* buffer, double* const* out) {
  StageWork w;
  const std::vector<CellArray> from = ends(g, s, s.from_tile, s.from_buffer, const_cast<double* const*>(in));
  const std::vector<CellArray> to = ends(g, s, s.to_tile, s.to_buffer, out);
  if (s.n_passes == 0) {  // a transpose only: tile <-> pieces
    for (const CellArray& a : from)
      for (const CellArray& b : to) w.gather.push_back(copy(a, b, s.from_tile ? b.box : a.box));
    return w;
  }
  const CellBox part = g.in_chunk(s.on_slab ? g.slab(s.index) : g.tile(s.index), s.chunk);
  // The passes' own array: the part's buffer where the stage has one, else the scratch array.
  const bool buffered = s.from_buffer || s.to_buffer;
  const CellArray work = buffered ? dense(buffer, s.on_slab ? g.slab(s.index) : g.tile(s.index)) : dense(scratch, part);
  w.work = view_at(work, part);
  w.first_in = w.last_out = w.work;
  if (s.from_tile)
    w.first_in = view_at(from[0], part);
  else if (s.from_buffer)
    ;  // the work array
  else if (pieces_in_view(g, s))
    w.first_in = pieces_view(from, s.on_slab);
  else
    for (const CellArray& a : from) w.gather.push_back(copy(a, work, a.box));
  if (s.to_tile)
    w.last_out = view_at(to[0], part);
  else if (s.to_buffer)
    ;
  else if (pieces_in_view(g, s))
    w.last_out = pieces_view(to, s.on_slab);
  else
    for (const CellArray& b : to) w.scatter.push_back(copy(work, b, b.box));
  w.plan = p;
  w.plan.nx = part.w;
  w.plan.ny = part.h;
  w.plan.nz = part.d;
  w.plan.bx = spectral_log2(part.w);
  w.plan.by = spectral_log2(part.h);
  w.plan.m0 = part.x0;
  w.plan.n0 = part.y0;
  w.plan.k0 = part.z0;
  if (g.split_chains) {
    w.chains.parts = g.tiles();
    w.chains.part = s.index;
    w.chains.scratch = scratch;
    if (s.to_buffer) w.chains.ends = out[0];
    if (s.from_buffer)
      for (int t = 0; t < g.tiles(); ++t) w.chains.all[t] = in[t];
  }
  return w;
}

long chain_exchange_doubles(const SpectralPlan& p, const SlabGeometry& g) {
  SpectralPlan part = p;
  part.ny = g.tile(0).h;
  return chain_exchange_doubles(part);
}
long chain_scratch_doubles(const SpectralPlan& p) { return long(p.null_lines) * p.ny; }

void spectral_stage_cpu(const SpectralPlan& p, const SlabGeometry& g, const SpectralStage& s, const double* tab,
                        const double* st, const double* const* in, double* scratch, double* buffer,
                        double* const* out) {
  if (solver_skips(st, p.skip_from)) return;
  const StageWork w = stage_work(p, g, s, in, scratch, buffer, out);
  strided_copies_cpu(w.gather);
  for (int n = 0; n < s.n_passes; ++n)
    spectral_pass_cpu(w.plan, tab, s.passes[n], n == 0 ? w.first_in : w.work, n == s.n_passes - 1 ? w.last_out : w.work,
                      &w.chains);
  strided_copies_cpu(w.scatter);
}

}  // namespace tdc
