// Halo exchange of tiled fields as tasks: each tile packs its border strips, then each tile unpacks
// its neighbours' strips into its ghost ring. StarPU moves only the strips between devices and,
// through StarPU-MPI, between ranks. Fields exchanged together share their tasks: one pack and one
// unpack a tile for all of them (each task costs the step some 20-40 us of scheduling on a GPU).
#pragma once
#include <vector>

#include "runtime/tiled_field.hpp"

namespace tdc {

// A field and the strips it exchanges through.
struct HaloField {
  const TiledField* field;
  const TileStrips* strips;
};

// A single tile (its own neighbour on every side) takes one halo_self task instead. The strips of an
// exchange of one field start toward their readers as their pack ends (TileStrips::sends).
void submit_halo_exchange(const Decomposition& d, const std::vector<HaloField>& fields);
inline void submit_halo_exchange(const Decomposition& d, const TiledField& f, const TileStrips& strips) {
  submit_halo_exchange(d, std::vector<HaloField>{{&f, &strips}});
}
// Brings the strips each tile's unpack of `f` will read to the tile's device once they are written
// (fetch_ahead), ahead of an unpack that also waits for other fields.
void submit_strip_fetch_ahead(const Decomposition& d, const HaloField& f);
// The unpacks of an exchange whose packs the fields' writers did (several tiles): what
// submit_halo_exchange submits after its pack tasks.
void submit_halo_unpack_of_packed(const Decomposition& d, const std::vector<HaloField>& fields);
// The unpack half alone (the strips were written by the step's border tasks).
void submit_halo_unpack(const Decomposition& d, const std::vector<HaloField>& fields);
inline void submit_halo_unpack(const Decomposition& d, const TiledField& f, const TileStrips& strips) {
  submit_halo_unpack(d, std::vector<HaloField>{{&f, &strips}});
}

}  // namespace tdc
