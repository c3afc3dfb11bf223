// The global grid and its horizontal decomposition into tiles of whole columns owned by MPI ranks.
#pragma once
#include <vector>

#include "../../codelets/common/tile_layout.hpp"

namespace tdc {

struct Grid {
  int nx = 0, ny = 0, nz = 0;
  double lx = 1.0, ly = 1.0, lz = 1.0;
  double dx() const { return lx / nx; }
  double dy() const { return ly / ny; }
  double dz() const { return lz / nz; }
  double cells() const { return double(nx) * ny * nz; }
};

// tiles_x × tiles_y equal tiles, periodic neighbours, a 2D block distribution over `ranks`.
class Decomposition {
 public:
  Decomposition(const Grid& g, int tiles_x, int tiles_y, int halo, int ranks);
  int tiles_x() const { return tx_; }
  int tiles_y() const { return ty_; }
  int tiles() const { return tx_ * ty_; }
  int ranks() const { return ranks_; }
  int ranks_x() const { return px_; }
  int ranks_y() const { return py_; }
  const TileLayout& layout() const { return layout_; }
  int id(int tx, int ty) const { return tx + tx_ * ty; }
  int tile_x(int id) const { return id % tx_; }
  int tile_y(int id) const { return id / tx_; }
  // The tile `dx`, `dy` tiles away from tile `id`, across the periodic boundaries.
  int neighbour(int id, int dx, int dy) const;
  int owner(int id) const;
  // Global index of a tile's interior cell (0, 0).
  int origin_x(int id) const { return tile_x(id) * layout_.nx; }
  int origin_y(int id) const { return tile_y(id) * layout_.ny; }

 private:
  int tx_, ty_, ranks_, px_, py_;
  TileLayout layout_;
};

}  // namespace tdc
