// Checkpoints, the same for every time-stepping model: a --restart file checked before the runtime
// starts (a mismatch is a ConfigError naming the key), read at the start of the run, and
// checkpoint.h5 written by rank 0 under the run's HDF5 mutex (src/io/checkpoint: atomically).
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "../../graph/runtime/grid.hpp"
#include "../io/checkpoint.hpp"

namespace tdc {

// Throws ConfigError unless `path` holds a checkpoint of this trajectory (`expected`), grid and
// fields that a run of `steps` steps can resume; does not read the fields.
void check_restart_file(const std::string& path, const io::Fingerprint& expected,
                        const std::vector<std::string>& fields, const Grid& grid, long steps);
// The checkpoint to resume from, or none when `path` is empty.
std::unique_ptr<io::CheckpointState> read_restart(const std::string& path, const io::Fingerprint& expected,
                                                  const std::vector<std::string>& fields);
// Writes `s` to `path` holding `hdf5` (the serial HDF5 library is not thread-safe); rank 0 only.
void write_checkpoint_file(const std::string& path, const io::CheckpointState& s, const io::Fingerprint& f,
                           std::mutex& hdf5);

}  // namespace tdc
