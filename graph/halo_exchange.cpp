#include "halo_exchange.hpp"

#include "../codelets/halo_pack/halo_pack.hpp"
#include "../codelets/halo_self/halo_self.hpp"
#include "../codelets/halo_unpack/halo_unpack.hpp"

namespace tdc {

void submit_halo_unpack(const Decomposition& d, const TiledField& f, const TileStrips& strips) {
  for (int t = 0; t < d.tiles(); ++t) {
    starpu_data_handle_t nb[kNeighbourSlots];
    for (int s = 0; s < kNeighbourSlots; ++s) {
      int dx, dy;
      neighbour_offset(s, dx, dy);
      nb[s] = strips.side(d.neighbour(t, dx, dy), neighbour_strip_side(s));
    }
    insert_halo_unpack(d.layout(), f.handle(t), strips.of(t), nb);
  }
}

void submit_halo_exchange(const Decomposition& d, const TiledField& f, const TileStrips& strips) {
  if (d.tiles_x() == 1 && d.tiles_y() == 1) {  // its own neighbour on every side: one task, no strips
    insert_halo_self(d.layout(), f.handle(0));
    return;
  }
  for (int t = 0; t < d.tiles(); ++t) insert_halo_pack(d.layout(), f.handle(t), strips.of(t));
  submit_halo_unpack(d, f, strips);
}

}  // namespace tdc
