// Checkpoints: the whole model state at a step (psi, the step, the run's initial budgets) plus the
// configuration keys that determine the trajectory, in one HDF5 file written to a temporary name
// and renamed into place, so a crash or a kill never leaves a half-written checkpoint. No StarPU.
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
  std::vector<double> psi;                 // [nz][ny][nx], x fastest
  std::vector<std::pair<std::string, double>> budgets;  // e.g. the initial mass, carried across restarts
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
// Reads and checks a checkpoint against this run's fingerprint; throws CheckpointError naming the
// first key that differs, or saying why the file cannot be used (missing, truncated, not ours).
CheckpointState read_checkpoint(const std::string& path, const Fingerprint& expected, bool with_field = true);

}  // namespace tdc::io
