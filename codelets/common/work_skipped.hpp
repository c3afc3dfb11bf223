// A kernel that finds its work no longer needed (a solver iteration submitted past convergence)
// says so here, on the host; its codelet's wrapper then keeps the task out of the history perf
// model. A task that returned at once says nothing of the kernel's cost, and mixing the two made
// dmda/dmdas expect microseconds of milliseconds of work (and StarPU flush its models).
#pragma once

namespace tdc {

inline bool& work_skipped() {
  static thread_local bool skipped = false;
  return skipped;
}

}  // namespace tdc
