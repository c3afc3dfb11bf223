#include "async_output.hpp"

#include <starpu.h>
#include <starpu_mpi.h>

#include <cstring>
#include <stdexcept>

#include "../codelets/common/codelet.hpp"
#include "../codelets/snapshot_copy/snapshot_copy.hpp"

namespace tdc {

struct AsyncFieldOutput::Slot {
  AsyncFieldOutput* owner;
  std::vector<std::unique_ptr<TiledField>> snapshots;  // one per field
  std::vector<std::vector<double>> fields;             // global [nz][ny][nx], rank 0
  double time = 0;
  int missing = 0;        // tiles not arrived yet
  bool busy = false;      // submitted and not yet written
  bool complete = false;  // every tile arrived
  struct TileArg {
    Slot* slot;
    int field, tile;
  };
  std::vector<TileArg> args;
};

AsyncFieldOutput::AsyncFieldOutput(const Decomposition& d, int rank, int fields, Writer write)
    : d_(d), rank_(rank), fields_(fields), write_(std::move(write)) {
  for (int s = 0; s < 2; ++s) {
    auto slot = std::make_unique<Slot>();
    slot->owner = this;
    slot->fields.resize(fields);
    for (int f = 0; f < fields; ++f) {
      slot->snapshots.push_back(std::make_unique<TiledField>("output_snapshot", d, rank, false));
      for (int t = 0; t < d.tiles(); ++t) slot->args.push_back({slot.get(), f, t});
    }
    slots_.push_back(std::move(slot));
  }
  if (rank_ == 0) writer_ = std::thread(&AsyncFieldOutput::writer_loop, this);
}

AsyncFieldOutput::~AsyncFieldOutput() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (writer_.joinable()) writer_.join();
}

void AsyncFieldOutput::submit(const std::vector<const TiledField*>& fields, double time) {
  if (int(fields.size()) != fields_) throw std::logic_error("AsyncFieldOutput: wrong number of fields");
  Slot& s = *slots_[next_];
  next_ = (next_ + 1) % int(slots_.size());
  if (rank_ == 0) {  // both slots busy: wait for the older record to be written
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return !s.busy || failure_; });
    if (failure_) std::rethrow_exception(failure_);
    s.busy = true;
    s.complete = false;
    s.time = time;
    s.missing = fields_ * d_.tiles();
    const TileLayout& L = d_.layout();
    for (auto& f : s.fields) f.assign(std::size_t(L.nx) * d_.tiles_x() * L.ny * d_.tiles_y() * L.nz, 0.0);
  }
  for (int f = 0; f < fields_; ++f)
    for (int t = 0; t < d_.tiles(); ++t) {
      const starpu_data_handle_t snapshot = s.snapshots[f]->handle(t);
      insert_snapshot_copy(fields[f]->handle(t), snapshot, kPrioHalo);
      starpu_mpi_get_data_on_node_detached(MPI_COMM_WORLD, snapshot, 0, nullptr, nullptr);
      if (rank_ == 0) starpu_data_acquire_cb(snapshot, STARPU_R, &tile_arrived, &s.args[f * d_.tiles() + t]);
    }
}

// Runs in a StarPU thread once a tile of the snapshot is readable on rank 0 (in main memory: that
// thread's own memory node may be a GPU's, so the pointer is asked for main RAM explicitly).
void AsyncFieldOutput::tile_arrived(void* arg) {
  auto* a = static_cast<Slot::TileArg*>(arg);
  Slot& s = *a->slot;
  AsyncFieldOutput& self = *s.owner;
  const Decomposition& d = self.d_;
  const TileLayout& L = d.layout();
  const starpu_data_handle_t h = s.snapshots[a->field]->handle(a->tile);
  const double* p = static_cast<const double*>(starpu_data_handle_to_pointer(h, STARPU_MAIN_RAM));
  const int gnx = L.nx * d.tiles_x(), gny = L.ny * d.tiles_y();
  const int ox = d.origin_x(a->tile), oy = d.origin_y(a->tile);
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      std::memcpy(&s.fields[a->field][(std::size_t(k) * gny + oy + j) * gnx + ox], p + L.at(0, j, k),
                  L.nx * sizeof(double));
  starpu_data_release(h);
  std::lock_guard<std::mutex> lock(self.mutex_);
  if (--s.missing == 0) {
    s.complete = true;
    self.changed_.notify_all();
  }
}

void AsyncFieldOutput::writer_loop() {
  for (;;) {
    Slot* s = slots_[next_write_].get();
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || s->complete; });
      if (!s->complete) return;
    }
    try {
      if (!failure_) write_(s->time, s->fields);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      failure_ = std::current_exception();
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      s->busy = false;
      s->complete = false;
      next_write_ = (next_write_ + 1) % int(slots_.size());
    }
    changed_.notify_all();
  }
}

void AsyncFieldOutput::finish() {
  if (rank_ == 0) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] {
      bool idle = true;
      for (auto& s : slots_) idle = idle && !s->busy;
      return idle || failure_;
    });
    if (failure_) std::rethrow_exception(failure_);
  }
}

}  // namespace tdc
