// Run configuration: read from TOML (plus --set overrides), validated before anything starts.
// A bad configuration raises ConfigError naming the key; the program exits with status 2 and writes
// nothing.
#pragma once
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../codelets/mpdata/mpdata_formulae.hpp"
#include "../../graph/runtime/grid.hpp"
#include "../run/config_error.hpp"

namespace tdc {

enum class Flow { Translation, Rotation, Deformational };
enum class Shape { Cone, Gaussian };

struct AdvectionConfig {
  std::string name;
  Flow flow = Flow::Rotation;
  Grid grid;
  ZBoundary z_boundary = ZBoundary::Periodic;
  int tiles_x = 1, tiles_y = 1, halo = 3;
  bool overlap = true;  // split each tile's step into border and body tasks
  double dt = 0.0;
  int steps = 0;
  mpdata::Options mpdata;
  // flow parameters
  std::array<double, 3> velocity{1.0, 0.0, 0.0};  // translation
  double omega = 0.0;                             // rotation rate about the z axis (rad per time unit)
  std::array<double, 2> rotation_center{0.5, 0.5};
  double period = 1.0;  // deformational flow: it reverses and returns at t = period
  // initial condition
  Shape shape = Shape::Cone;
  std::array<double, 3> center{0.5, 0.5, 0.5};
  double radius = 0.15, amplitude = 1.0, background = 0.0;
  int shape_dims = 2;         // 2: a column-invariant shape repeated over levels; 3: 3D
  double scale_height = 0.0;  // > 0: G = exp(-z / H)
  // output and runtime
  int output_interval = 0;  // steps between field records (0: first and last only)
  int checkpoint_interval = 0;
  int diagnostics_interval =
      10;  // steps between diagnostics records (0: none)                    // steps between checkpoints (0: at the end and on SIGINT/SIGTERM only)
  double progress_seconds = 5.0;
  std::string scheduler = "auto";
  bool cpu_tasks_with_gpu = false;  // let CPU workers take GPU-capable tasks beside GPUs
  bool tile_placement = true;   // runtime.placement = "tiles"
};

// key=value overrides as given on the command line ("mpdata.iord=3", "case.flow=translation").
AdvectionConfig load_config(const std::string& path, const std::vector<std::string>& overrides);
// Same, from TOML text (tests).
AdvectionConfig parse_config(const std::string& toml_text, const std::vector<std::string>& overrides);

const char* to_string(Flow f);

// The settings that determine a run's trajectory, as "key" -> text: a checkpoint can only be
// resumed by a run that agrees on all of them (tiles, ranks, output and step count may differ).
std::vector<std::pair<std::string, std::string>> trajectory_fingerprint(const AdvectionConfig& c);

}  // namespace tdc
