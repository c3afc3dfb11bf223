// Small values the ranks' hosts exchange while StarPU runs (the stop words, the solver's state),
// through MPI itself on a communicator of their own, non-blocking: a value posted at one step is read
// a step or two later, when it has long arrived, so no host waits for another on the step's path.
// As StarPU-MPI data (a handle registered, sent detached, acquired, unregistered a step) the stop
// words alone cost two ranks on two H100s 7-10 ms of a 24-29 ms step (docs/performance.md, "Two
// ranks").
// The host calls MPI while StarPU-MPI's thread does: that needs MPI_THREAD_MULTIPLE, which Runtime
// asks for; host_channel_available() tells whether MPI granted it (else the callers keep StarPU-MPI).
#pragma once
#include <mpi.h>

#include <memory>
#include <vector>

namespace tdc {

bool host_channel_available();
void set_host_channel_available(bool available);  // Runtime, once MPI has started

// One non-blocking collective in flight; values() completes it (once) and returns its result.
template <class T>
class Posted {
 public:
  explicit Posted(std::vector<T> values) : values_(std::move(values)) {}
  ~Posted();  // completes it if values() was not called (every rank takes part in it)
  Posted(const Posted&) = delete;
  Posted& operator=(const Posted&) = delete;
  const std::vector<T>& values();
  MPI_Request* request() { return &request_; }
  T* data() { return values_.data(); }

 private:
  bool complete() noexcept;  // false: MPI reported an error
  MPI_Request request_ = MPI_REQUEST_NULL;
  std::vector<T> values_;
};

class HostChannel {
 public:
  HostChannel();   // collective: a duplicate of MPI_COMM_WORLD
  ~HostChannel();  // collective
  HostChannel(const HostChannel&) = delete;
  HostChannel& operator=(const HostChannel&) = delete;
  // Every rank's int, in rank order, on every rank. Collective, in the same order on every rank.
  std::unique_ptr<Posted<int>> all_gather(int mine);
  // `root`'s values on every rank (the others pass as many values, overwritten). Collective.
  std::unique_ptr<Posted<double>> broadcast(std::vector<double> values, int root);

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int ranks_ = 1;
};

}  // namespace tdc
