// snapshot_copy: copies a tile field into a snapshot handle, so that diagnostics can read the
// state of step n at low priority while step n+2 already overwrites the field.
#pragma once
#include <starpu.h>

#include "snapshot_copy_kernel.hpp"

namespace tdc {

void insert_snapshot_copy(starpu_data_handle_t src, starpu_data_handle_t dst, int priority);

}  // namespace tdc
