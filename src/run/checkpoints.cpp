#include "checkpoints.hpp"

#include "config_error.hpp"
#include "run_failure.hpp"

namespace tdc {

void check_restart_file(const std::string& path, const io::Fingerprint& expected,
                        const std::vector<std::string>& fields, const Grid& grid, long steps) {
  try {
    io::check_resumable(path, expected, fields, grid.nx, grid.ny, grid.nz, steps);
  } catch (const io::CheckpointError& e) {
    throw ConfigError(e.key(), e.what());
  }
}

std::unique_ptr<io::CheckpointState> read_restart(const std::string& path, const io::Fingerprint& expected,
                                                  const std::vector<std::string>& fields) {
  if (path.empty()) return nullptr;
  return std::make_unique<io::CheckpointState>(io::read_checkpoint(path, expected, fields));
}

void write_checkpoint_file(const std::string& path, const io::CheckpointState& s, const io::Fingerprint& f,
                           std::mutex& hdf5) {
  std::lock_guard<std::mutex> lock(hdf5);
  // A checkpoint that cannot be written ends the run (the previous one is kept: written atomically).
  or_fail_run([&] { io::write_checkpoint(path, s, f); });
}

}  // namespace tdc
