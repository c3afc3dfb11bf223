// halo_pack: copies the four border strips of tile fields (the interior cells their neighbours need)
// into small strip handles, so only strips travel between devices and ranks. Several fields of one
// tile go in one task: a field exchanged beside others costs no task of its own.
#pragma once
#include <starpu.h>

#include <vector>

#include "../common/send_ahead.hpp"
#include "halo_pack_plan.hpp"

namespace tdc {

// A tile field (block handle) and its four strips (vector handles).
struct PackedField {
  starpu_data_handle_t field;
  const starpu_data_handle_t* strips;
};

// Submits the packs of `fields` (tiles of one layout) as one task.
// `send`: the strips' copies its end starts (send_ahead.hpp), or null.
void insert_halo_pack(const TileLayout& L, const std::vector<PackedField>& fields, const SendAhead* send = nullptr);

}  // namespace tdc
