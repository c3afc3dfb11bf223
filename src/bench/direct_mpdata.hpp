// The benchmark's baseline: the same MPDATA step kernels as the task graph (border bands into
// strips, body, unpack), launched back to back on one CUDA stream for all tiles, without StarPU.
#pragma once
#include <string>
#include <vector>

#include "../advection/advection_config.hpp"

namespace tdc {

struct DirectTiming {
  std::vector<double> ms_per_step;  // one per repeat
  std::string checksum;             // of the field after warmup + repeats * steps steps
};

// Whether a CUDA device is usable from this build.
bool cuda_device_available();
std::string cuda_device_name();
// Runs `warmup` steps, then `repeats` timed runs of `steps` steps (CUDA events).
DirectTiming direct_mpdata_cuda(const AdvectionConfig& cfg, int warmup, int repeats, int steps);
// Device-to-device copy bandwidth (bytes read + written per second), median of `repeats` copies.
double device_copy_bandwidth(std::size_t bytes, int repeats);

}  // namespace tdc
