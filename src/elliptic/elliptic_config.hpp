// Configuration of an elliptic case (case.kind = "elliptic"): the thin-shell model equation of
// paper 002 and the Krylov solver settings. Validated like the advection configuration: a bad key
// or value is a ConfigError naming it (exit 2, nothing written).
#pragma once
#include <string>
#include <vector>

#include "../../graph/elliptic_solver.hpp"
#include "../../graph/runtime/grid.hpp"

namespace tdc {

struct ThinShellParams {
  int nx = 64, ny = 64, nz = 32;
  double lx = 1.5707963267948966, ly = 1.5707963267948966;  // horizontal extent in earth radii (one cube face)
  double height = 0.01;                                     // H = D / R_earth
  bool graded = true;            // r_k = 1 + (k / nz)^2 H (paper 002 §7.2), else uniform levels
  double omega2 = 6.71e-4;       // omega^2
  double lambda2 = 3.32e-2;      // lambda^2
  double skew = 0.0;             // c of a centred -c d/dx term (nonsymmetric operator; GCR only)
  int courant_reference_nx = 0;  // > 0: omega^2 scaled by (reference_nx / nx)^2 (fixed Courant number)
  bool random_rhs = false;       // f: the manufactured solution's, or reproducible noise (all modes; no exact u)
};

struct EllipticConfig {
  std::string name = "thin_shell_elliptic";
  ThinShellParams shell;
  int tiles_x = 1, tiles_y = 1;
  KrylovSettings solver;
  bool write_fields = true;
  std::string scheduler = "auto";
  bool cpu_tasks_with_gpu = false;
  bool tile_placement = true;   // runtime.placement = "tiles"
};

EllipticConfig load_elliptic_config(const std::string& path, const std::vector<std::string>& overrides);
EllipticConfig parse_elliptic_config(const std::string& toml_text, const std::vector<std::string>& overrides);

}  // namespace tdc
