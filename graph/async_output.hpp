// Field output that overlaps computation: each record is a snapshot copy of its fields (short tasks), the
// snapshots' tiles travel to rank 0 (detached StarPU-MPI transfers) and are copied into a global
// buffer as they arrive (starpu_data_acquire_cb), and a writer thread appends full records to the
// HDF5 file. The stepping loop never waits for a record unless both snapshot slots are still busy.
#pragma once
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/tiled_field.hpp"

namespace tdc {

class AsyncFieldOutput {
 public:
  // `write` runs on the writer thread (rank 0 only) with each complete record (every field global,
  // [nz][ny][nx]), in order.
  using Writer = std::function<void(double time, const std::vector<std::vector<double>>& fields)>;
  AsyncFieldOutput(const Decomposition& d, int rank, int fields, Writer write);
  ~AsyncFieldOutput();
  // Collective: starts a record of `fields` (as many as the constructor said; the state at `time`);
  // returns without waiting for it.
  void submit(const std::vector<const TiledField*>& fields, double time);
  // Waits until every submitted record is written; rethrows a writer failure.
  void finish();

 private:
  struct Slot;
  static void tile_arrived(void* arg);
  void writer_loop();

  const Decomposition& d_;
  int rank_;
  int fields_;
  Writer write_;
  std::vector<std::unique_ptr<Slot>> slots_;
  int next_ = 0;
  std::mutex mutex_;
  std::condition_variable changed_;
  int next_write_ = 0;  // records are written in submission order (slots round-robin)
  bool stopping_ = false;
  std::exception_ptr failure_;
  std::thread writer_;
};

}  // namespace tdc
