// Memory layout of a tile and the plain types every kernel shares (CPU and CUDA, no StarPU here).
#pragma once
#include <cstddef>

#if defined(__CUDACC__)
#define TDC_HD __host__ __device__ __forceinline__
#else
// Formulae must inline into the loops that call them, or the loops do not vectorise.
#define TDC_HD inline __attribute__((always_inline))
#endif

namespace tdc {

// A tile holds whole vertical columns: nx × ny interior columns of nz cells, plus a ghost ring of
// `halo` columns in x and y (no ghost levels in z: z boundaries are handled by index rules).
// x is fastest, then y, then z, so that GPU threads along x read coalesced and a column's cells are
// one plane apart (the layout the vertical line solves want as well).
struct TileLayout {
  int nx = 0, ny = 0, nz = 0;
  int halo = 0;

  TDC_HD int sx() const { return nx + 2 * halo; }
  TDC_HD int sy() const { return ny + 2 * halo; }
  TDC_HD std::ptrdiff_t plane() const { return std::ptrdiff_t(sx()) * sy(); }
  TDC_HD std::size_t size() const { return std::size_t(plane()) * nz; }
  // Offset of cell (i, j, k); i and j may be negative (ghost ring), down to -halo.
  TDC_HD std::ptrdiff_t at(int i, int j, int k) const {
    return std::ptrdiff_t(i + halo) + std::ptrdiff_t(sx()) * (j + halo) + plane() * k;
  }
};

// A horizontal index range [i0, i1) × [j0, j1) in interior coordinates (may reach into the ghost
// ring); kernels always sweep all nz levels.
struct Box {
  int i0 = 0, i1 = 0, j0 = 0, j1 = 0;
  TDC_HD int width() const { return i1 - i0; }
  TDC_HD int height() const { return j1 - j0; }
  TDC_HD bool empty() const { return i1 <= i0 || j1 <= j0; }
  Box grown(int d) const { return {i0 - d, i1 + d, j0 - d, j1 + d}; }
  // The box of cells whose lower faces are all the faces of this box's cells.
  Box with_upper_faces() const { return {i0, i1 + 1, j0, j1 + 1}; }
};

// The interior and `ring` columns of the ghost ring around it: where the dynamical core's pointwise
// and gradient updates compute, so that their output's ring is current without a halo exchange
// (each ring cell gets the neighbour's interior value, bit for bit, from the same inputs).
TDC_HD Box ring_box(const TileLayout& L, int ring) { return Box{-ring, L.nx + ring, -ring, L.ny + ring}; }

enum class ZBoundary : int { Periodic = 0, Rigid = 1 };

// Vertical neighbour indices of level k under the z boundary rule: rigid lids clamp (zero gradient),
// periodic wraps.
TDC_HD int k_below(int k, int nz, ZBoundary zb) { return k > 0 ? k - 1 : (zb == ZBoundary::Periodic ? nz - 1 : 0); }
TDC_HD int k_above(int k, int nz, ZBoundary zb) {
  return k + 1 < nz ? k + 1 : (zb == ZBoundary::Periodic ? 0 : nz - 1);
}

// The CPU kernels' walk over a tile's interior: row(o, k) for every row (j, k) in memory order, o the
// offset of its first cell, so that each kernel's own loop along x is plain arithmetic on contiguous
// arrays, which the compiler vectorises.
// Over a box's rows (it may reach into the ghost ring): o is the offset of the box's first cell in
// the row, and the row holds b.width() cells.
template <class Row>
inline void for_each_row(const TileLayout& L, const Box& b, Row&& row) {
  for (int k = 0; k < L.nz; ++k)
    for (int j = b.j0; j < b.j1; ++j) row(L.at(b.i0, j, k), k);
}
template <class Row>
inline void for_each_row(const TileLayout& L, Row&& row) {
  for_each_row(L, Box{0, L.nx, 0, L.ny}, row);
}

// What a row-by-row CPU loop needs of level k's vertical neighbours: the offsets to the rows above
// and below, and the factor a field of the given parity takes beyond a rigid lid (1 for even fields,
// -1 for odd ones such as w: the mirrored cell; 1 wherever no lid is crossed).
struct RowNeighbours {
  std::ptrdiff_t above, below;
  double beyond_above, beyond_below;
};
TDC_HD RowNeighbours row_neighbours(const TileLayout& L, int k, ZBoundary zb, double parity) {
  const bool rigid = zb == ZBoundary::Rigid;
  return {L.plane() * (k_above(k, L.nz, zb) - k), L.plane() * (k_below(k, L.nz, zb) - k),
          rigid && k + 1 == L.nz ? parity : 1.0, rigid && k == 0 ? parity : 1.0};
}

// Border strips: the interior cells each neighbour needs, one contiguous array per side.
// West/East strips are halo × ny columns, South/North strips are nx × halo columns (they include the
// corners, which the diagonal neighbours take).
enum Side : int { West = 0, East = 1, South = 2, North = 3 };

struct StripShape {
  int i0, j0, w, h;  // origin in interior coordinates and horizontal extent
};

TDC_HD StripShape strip_shape(const TileLayout& L, int side) {
  const int hw = L.halo;
  switch (side) {
    case West: return {0, 0, hw, L.ny};
    case East: return {L.nx - hw, 0, hw, L.ny};
    case South: return {0, 0, L.nx, hw};
    default: return {0, L.ny - hw, L.nx, hw};
  }
}
TDC_HD std::size_t strip_size(const TileLayout& L, int side) {
  StripShape s = strip_shape(L, side);
  return std::size_t(s.w) * s.h * L.nz;
}

}  // namespace tdc
