// Configuration of a dynamical-core case (case.kind = "dycore"): incompressible (Boussinesq) flow
// integrated by EULAG's NFT scheme (graph/nft_step.hpp). Validated like the other kinds: a bad key
// or value is a ConfigError naming it (exit 2, nothing written).
#pragma once
#include <string>
#include <vector>

#include "../codelets/mpdata/mpdata_formulae.hpp"
#include "../graph/elliptic_solver.hpp"
#include "grid.hpp"

namespace tdc {

struct DycoreConfig {
  std::string name = "taylor_green";
  Grid grid{64, 64, 64, 6.283185307179586, 6.283185307179586, 6.283185307179586};
  int tiles_x = 1, tiles_y = 1;
  double dt = 0.02;
  int steps = 100;
  double velocity = 1.0;             // Taylor-Green amplitude V0
  double viscosity = 0.0;            // nu (0: inviscid); Re = V0 L / nu with L = lx / (2 pi)
  mpdata::Options mpdata;            // momentum advection (iord, non-oscillatory option)
  KrylovSettings solver;             // tol_abs is set from divergence_tolerance
  double divergence_tolerance = 1e-6;  // bound on max |D v| after each step (solver: ||r|| <= 2 tol / dt)
  int solver_budget = 100;           // iterations submitted per step
  int diagnostics_interval = 10;     // steps between kinetic energy / divergence records
  std::string scheduler = "dmdas";
  bool cpu_tasks_with_gpu = false;
};

DycoreConfig load_dycore_config(const std::string& path, const std::vector<std::string>& overrides);
DycoreConfig parse_dycore_config(const std::string& toml_text, const std::vector<std::string>& overrides);

}  // namespace tdc
