// Owner-computes placement across the GPUs of a rank: every tile has a home GPU for the whole run,
// and every task that writes (or else reads) a tile's data runs there. Only halo strips and
// reduction partials then move between devices; left to dmda/dmdas, whole tiles travelled between
// GPUs every step (163 GiB in 8 steps of a 4-GPU run, docs/performance.md, "Several GPUs").
#pragma once
#include <starpu.h>

namespace tdc {

// Records that `h` holds data of tile `tile` of `tiles` (a rank's tiles in row-major order).
void place_tile_data(starpu_data_handle_t h, int tile, int tiles);
// Forgets `h` (before it is unregistered).
void forget_tile_data(starpu_data_handle_t h);
// The CUDA worker that owns the task's tile, or -1 to let the scheduler choose: with fewer than two
// CUDA workers, where CPU workers may take GPU-capable tasks, for codelets with no CUDA
// implementation, and for tasks that touch no placed data.
int home_worker(const starpu_codelet* cl, const starpu_data_descr* buffers, int n);
// The home GPU of `h` (an index among the rank's CUDA workers), or -1 where it has none.
int home_gpu(starpu_data_handle_t h);
// The CUDA worker of that GPU, or -1.
int home_worker_of(starpu_data_handle_t h);
// Whether GPU-capable tasks are pinned to their tile's GPU (the default beside two GPUs or more).
void set_tile_placement(bool enabled);

}  // namespace tdc
