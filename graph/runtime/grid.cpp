#include "grid.hpp"

#include <cmath>

namespace tdc {

Decomposition::Decomposition(const Grid& g, int tiles_x, int tiles_y, int halo, int ranks)
    : tx_(tiles_x), ty_(tiles_y), ranks_(ranks) {
  layout_.nx = g.nx / tiles_x;
  layout_.ny = g.ny / tiles_y;
  layout_.nz = g.nz;
  layout_.halo = halo;
  // Rank grid px × py = ranks, as close to the tile grid's aspect ratio as the divisors allow.
  px_ = 1;
  double best = 1e300;
  for (int p = 1; p <= ranks; ++p) {
    if (ranks % p) continue;
    const double score = std::fabs(std::log((double(p) / (ranks / p)) / (double(tiles_x) / tiles_y)));
    if (score < best) {
      best = score;
      px_ = p;
    }
  }
  py_ = ranks / px_;
}

int Decomposition::neighbour(int id, int dx, int dy) const {
  const int x = ((tile_x(id) + dx) % tx_ + tx_) % tx_;
  const int y = ((tile_y(id) + dy) % ty_ + ty_) % ty_;
  return this->id(x, y);
}

int Decomposition::owner(int id) const {
  // Block distribution: rank column = tile column scaled to the rank grid (ranks beyond the tile
  // count simply own nothing).
  const int rx = int((long(tile_x(id)) * px_) / tx_);
  const int ry = int((long(tile_y(id)) * py_) / ty_);
  return rx + px_ * ry;
}

}  // namespace tdc
