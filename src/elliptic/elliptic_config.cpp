#include "elliptic_config.hpp"

#include <fstream>
#include <sstream>

#include "../../codelets/solver_scalars/solver_scalars_kernel.hpp"
#include "../run/case_keys.hpp"

namespace tdc {
namespace {

using namespace config_detail;

EllipticConfig read(toml::value& root, const std::vector<std::string>& overrides) {
  apply_overrides(root, overrides);
  Reader r(root);
  EllipticConfig c;
  c.name = read_case_name(r, "elliptic", c.name);
  ThinShellParams& s = c.shell;
  Grid g{s.nx, s.ny, s.nz, s.lx, s.ly};  // no grid.lz: the shell's depth is shell.height
  read_grid(r, g, false);
  s.nx = g.nx;
  s.ny = g.ny;
  s.nz = g.nz;
  s.lx = g.lx;
  s.ly = g.ly;
  s.height = r.number("shell.height", s.height);
  s.graded = r.choice("shell.levels", "graded", {"graded", "uniform"}) == "graded";
  s.omega2 = r.number("shell.omega2", s.omega2);
  s.lambda2 = r.number("shell.lambda2", s.lambda2);
  s.skew = r.number("shell.skew", s.skew);
  s.courant_reference_nx = int(r.integer("shell.courant_reference_nx", 0));
  s.random_rhs = r.choice("shell.rhs", "manufactured", {"manufactured", "random"}) == "random";
  read_tiles(r, c.tiles_x, c.tiles_y);
  KrylovSettings& k = c.solver;
  k.method = r.choice("solver.method", "pcg", {"pcg", "gcr"}) == "pcg" ? KrylovMethod::Pcg : KrylovMethod::Gcr;
  k.fused = r.boolean("solver.fused", true);
  k.restart = int(r.integer("solver.restart", k.restart));
  k.tol_rel = r.number("solver.tol_rel", k.tol_rel);
  k.tol_abs = r.number("solver.tol_abs", k.tol_abs);
  k.max_iter = int(r.integer("solver.max_iter", k.max_iter));
  k.check_every = int(r.integer("solver.check_every", k.check_every));
  c.write_fields = r.boolean("output.fields", true);
  read_runtime(r, c.scheduler, c.cpu_tasks_with_gpu, c.tile_placement);
  r.reject_unknown();

  require(s.nx > 0, "grid.nx", "must be positive");
  require(s.ny > 0, "grid.ny", "must be positive");
  require(s.nz >= 2, "grid.nz", "must be at least 2");
  require(s.lx > 0, "grid.lx", "must be positive");
  require(s.ly > 0, "grid.ly", "must be positive");
  require_memory(Grid{s.nx, s.ny, s.nz, s.lx, s.ly, 1.0}, 10,
                 "the solution, right-hand side, coefficients and the solver's vectors");
  require(s.height > 0, "shell.height", "must be positive");
  require(s.omega2 > 0, "shell.omega2", "must be positive");
  require(s.lambda2 > 0, "shell.lambda2", "must be positive");
  require(s.courant_reference_nx >= 0, "shell.courant_reference_nx", "must be zero (off) or positive");
  require_tiles_divide(s.nx, s.ny, c.tiles_x, c.tiles_y);
  require(c.tiles_x * c.tiles_y <= kMaxCombineTiles, "tiles.x",
          "at most " + std::to_string(kMaxCombineTiles) + " tiles per solver");
  require(k.restart >= 1 && k.restart <= kMaxGcrDirections, "solver.restart",
          "must be between 1 and " + std::to_string(kMaxGcrDirections) +
              " (a GCR direction task takes 6 + 2k buffers; StarPU is built with 16)");
  require(k.tol_rel >= 0 && k.tol_abs >= 0 && (k.tol_rel > 0 || k.tol_abs > 0), "solver.tol_rel",
          "tolerances must be non-negative and at least one positive");
  require(k.max_iter >= 1, "solver.max_iter", "must be positive");
  require(k.check_every >= 1, "solver.check_every", "must be positive");
  require(!(k.method == KrylovMethod::Pcg && s.skew != 0.0), "solver.method",
          "PCG needs a symmetric operator; shell.skew != 0 makes it nonsymmetric (use \"gcr\")");
  // The skewed couplings must stay positive (an M-matrix), or the centred term dominates.
  const double dx = s.lx / s.nx, dy = s.ly / s.ny;
  require(std::abs(s.skew) * dy / 2 < dy / dx, "shell.skew", "too large for this grid (cell Peclet number >= 2)");
  return c;
}

}  // namespace

EllipticConfig load_elliptic_config(const std::string& path, const std::vector<std::string>& overrides) {
  return config_detail::load_file(path, overrides, read);
}

EllipticConfig parse_elliptic_config(const std::string& text, const std::vector<std::string>& overrides) {
  return config_detail::load_text(text, overrides, read);
}

}  // namespace tdc
