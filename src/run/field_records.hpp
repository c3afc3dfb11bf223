// Field records (fields.h5 and its XDMF sidecar) that overlap the steps, for every model that writes
// them: graph/async_output snapshots the fields (tasks), brings the snapshot to rank 0 and hands it to
// a writer thread there, which appends it to the file (created with the first record). The serial
// HDF5 library is not thread-safe: every HDF5 call of a run holds the mutex given here.
#pragma once
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "../../graph/async_output.hpp"
#include "../io/field_writer.hpp"

namespace tdc {

class FieldRecords {
 public:
  using Attributes = std::vector<std::pair<std::string, std::string>>;
  // Runs on the writer thread with each record before it is written, holding the HDF5 mutex.
  using Observer = std::function<void(double time, const std::vector<std::vector<double>>& fields)>;
  // `units`: (field name, unit) pairs; `attributes`: the file's global attributes.
  FieldRecords(const Decomposition& d, int rank, std::string path, const Grid& grid, std::vector<std::string> names,
               Attributes attributes, Attributes units, std::mutex& hdf5, Observer observe = {});
  // Collective: starts a record of `fields` (in the order of `names`) at `time`; returns at once.
  void submit(const std::vector<const TiledField*>& fields, double time) { output_->submit(fields, time); }
  // Waits until every record is written; rethrows a writer failure.
  void finish() { output_->finish(); }
  // After finish(), on rank 0: whether the file exists (a record was written), and its records.
  bool written() const { return writer_ != nullptr; }
  int records() const { return writer_->records(); }

 private:
  std::string path_;
  Grid grid_;
  std::vector<std::string> names_;
  Attributes attributes_, units_;
  std::mutex& hdf5_;
  Observer observe_;
  std::unique_ptr<io::FieldWriter> writer_;   // the writer thread's
  std::unique_ptr<AsyncFieldOutput> output_;  // destroyed first: its thread uses writer_
};

}  // namespace tdc
