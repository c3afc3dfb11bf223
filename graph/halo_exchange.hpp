// Halo exchange of a tiled field as tasks: each tile packs its border strips, then each tile
// unpacks its neighbours' strips into its ghost ring. StarPU moves only the strips between devices
// and, through StarPU-MPI, between ranks.
#pragma once
#include "runtime/tiled_field.hpp"

namespace tdc {

// A single tile (its own periodic neighbour) takes one halo_self task instead.
void submit_halo_exchange(const Decomposition& d, const TiledField& f, const TileStrips& strips);
// The unpack half alone (the strips were written by the step's border tasks).
void submit_halo_unpack(const Decomposition& d, const TiledField& f, const TileStrips& strips);

}  // namespace tdc
