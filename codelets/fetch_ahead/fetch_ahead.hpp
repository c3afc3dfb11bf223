// fetch_ahead: a task that does nothing but read data where a later task will need it.
//
// StarPU starts moving a task's inputs when the task is pushed, that is once all its dependencies
// have ended. A task at the end of a chain (the spectral pass of chunk c, which also writes the slab
// buffer that the pass of chunk c - 1 wrote; the unpack of several fields' strips, ready after the
// last field's MPDATA) thus waits for its inputs after the chain's previous task, although they were
// written long before: on four H100s 0.1 ms for every chunk's pieces (docs/performance.md). A
// fetch_ahead task reading them depends only on their writers, so they travel as soon as they are
// written. It runs last in its worker's queue (kPrioFetchAhead); on a GPU its (empty) run ends with the
// kernel before it on the stream, so it holds one of the worker's pipeline slots until then.
#pragma once
#include <starpu.h>

#include <vector>

namespace tdc {

// TASKDYCORE_FETCH_AHEAD: "auto" (the default: where a rank has a GPU and data moves between GPUs or
// ranks), "on" (always, every handle: for tests on CPUs) or "off".
enum class FetchAhead { automatic, on, off };
FetchAhead fetch_ahead_mode();  // from the environment; a bad value throws std::invalid_argument

// Whether fetch-ahead tasks are submitted in this run.
bool fetch_ahead_enabled();

// Submits a task on the device (and rank) of `run_with` reading those of `data` that live elsewhere
// (every one with TASKDYCORE_FETCH_AHEAD=on); nothing when none does or fetch-ahead is off.
void insert_fetch_ahead(const std::vector<starpu_data_handle_t>& data, starpu_data_handle_t run_with);

}  // namespace tdc
