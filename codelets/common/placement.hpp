// Task placement: which worker a task must run on, asked for every task at its submission (see
// submit_task in codelet.hpp). Owner-computes placement (tiles pinned to GPUs) goes here.
#pragma once
#include <starpu.h>

namespace tdc {

// The worker the task with these buffers (handles with their modes) must run on, or -1 for the
// scheduler's choice.
int task_worker(const starpu_data_handle_t* handles, const starpu_data_access_mode* modes, int n);

}  // namespace tdc
