// Checkpoints: the whole model state at a step (its named 3D fields, the step, the run's initial
// budgets, optionally the diagnostics recorded so far) plus the configuration keys that determine the
// trajectory, in one HDF5 file written to a temporary name and renamed into place, so a crash or a
// kill never leaves a half-written checkpoint. No StarPU.
#pragma once
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tdc::io {

// "key" -> value (as text) for every setting a resumed run must share with the checkpoint.
using Fingerprint = std::vector<std::pair<std::string, std::string>>;

struct CheckpointState {
  long step = 0;
  double time = 0.0;
  int nx = 0, ny = 0, nz = 0;
  // Named fields, each [nz][ny][nx] with x fastest (the advection model: "psi"; the dycore: the
  // velocity, its previous value, the pressure and theta').
  std::vector<std::pair<std::string, std::vector<double>>> fields;
  std::vector<std::pair<std::string, double>> budgets;  // e.g. the initial mass, carried across restarts
  // Time series recorded before the checkpoint (column names, one column each; may be empty), so a
  // resumed run's diagnostics cover the whole run.
  std::vector<std::string> series_names;
  std::vector<std::vector<double>> series;

  // The field called `name` (throws CheckpointError if absent).
  const std::vector<double>& field(const std::string& name) const;
};

class CheckpointError : public std::runtime_error {
 public:
  CheckpointError(const std::string& key, const std::string& what) : std::runtime_error(what), key_(key) {}
  const std::string& key() const { return key_; }  // the mismatching config key, or "--restart"

 private:
  std::string key_;
};

// Writes `path` atomically (path.tmp, then rename).
void write_checkpoint(const std::string& path, const CheckpointState& s, const Fingerprint& f);
// Reads and checks a checkpoint against this run's fingerprint and the fields it needs (each 3D,
// all of one size, which sets nx, ny, nz); throws CheckpointError naming the first key that differs,
// or saying why the file cannot be used (missing, truncated, not ours). With `with_fields` false
// only the checks are made and the fields are left empty; with `verify` the fields are read anyway
// to verify their checksums. Every dataset carries an FNV-1a checksum of its data ("fnv1a"), and the
// step (>= 0), time and sizes are validated before any use: a damaged file is a CheckpointError.
CheckpointState read_checkpoint(const std::string& path, const Fingerprint& expected,
                                const std::vector<std::string>& field_names, bool with_fields = true,
                                bool verify = true);

// read_checkpoint's checks without reading the fields, plus that they are nx x ny x nz and that the
// checkpoint's step is below `steps` (the run's end); throws CheckpointError naming the key.
void check_resumable(const std::string& path, const Fingerprint& expected, const std::vector<std::string>& field_names,
                     int nx, int ny, int nz, long steps);

}  // namespace tdc::io
