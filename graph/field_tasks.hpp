// Whole-field work for the models, which submit no task and touch no StarPU data themselves: a field
// copied as tasks, a field reset on the host, and the bounded look-ahead of a stepping loop. The task
// priorities (kPrioHalo, kPrioBody, kPrioDiagnostics) come with this header.
#pragma once
#include "../codelets/common/codelet.hpp"
#include "runtime/tiled_field.hpp"

namespace tdc {

// to = from on every tile, ghost ring included: one snapshot-copy task per tile, at `priority`.
void submit_field_copy(const Decomposition& d, const TiledField& from, const TiledField& to, int priority);

// Sets this rank's tiles of `f` to `value`, ghost ring included, on the host once the tasks that
// use it are done (starpu_data_acquire for writing); synchronous.
void fill_owned_tiles(const Decomposition& d, TiledField& f, double value);

// Blocks the submitting thread until at most `window` of the tasks it submitted are unfinished.
void wait_for_submitted(unsigned window);

}  // namespace tdc
