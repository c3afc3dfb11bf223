#include "elliptic_config.hpp"

#include <fstream>
#include <sstream>

#include "../../codelets/solver_scalars/solver_scalars_kernel.hpp"
#include "../run/config_reader.hpp"

namespace tdc {
namespace {

using namespace config_detail;

EllipticConfig read(toml::value& root, const std::vector<std::string>& overrides) {
  if (!root.is_table()) root = toml::table{};
  for (const auto& o : overrides) apply_override(root, o);
  Reader r(root);
  EllipticConfig c;
  r.choice("case.kind", "elliptic", {"elliptic"});
  c.name = r.text("case.name", c.name);
  ThinShellParams& s = c.shell;
  s.nx = int(r.integer("grid.nx", s.nx));
  s.ny = int(r.integer("grid.ny", s.ny));
  s.nz = int(r.integer("grid.nz", s.nz));
  s.lx = r.number("grid.lx", s.lx);
  s.ly = r.number("grid.ly", s.ly);
  s.height = r.number("shell.height", s.height);
  s.graded = r.choice("shell.levels", "graded", {"graded", "uniform"}) == "graded";
  s.omega2 = r.number("shell.omega2", s.omega2);
  s.lambda2 = r.number("shell.lambda2", s.lambda2);
  s.skew = r.number("shell.skew", s.skew);
  s.courant_reference_nx = int(r.integer("shell.courant_reference_nx", 0));
  s.random_rhs = r.choice("shell.rhs", "manufactured", {"manufactured", "random"}) == "random";
  c.tiles_x = int(r.integer("tiles.x", 1));
  c.tiles_y = int(r.integer("tiles.y", 1));
  KrylovSettings& k = c.solver;
  k.method = r.choice("solver.method", "pcg", {"pcg", "gcr"}) == "pcg" ? KrylovMethod::Pcg : KrylovMethod::Gcr;
  k.fused = r.boolean("solver.fused", true);
  k.restart = int(r.integer("solver.restart", k.restart));
  k.tol_rel = r.number("solver.tol_rel", k.tol_rel);
  k.tol_abs = r.number("solver.tol_abs", k.tol_abs);
  k.max_iter = int(r.integer("solver.max_iter", k.max_iter));
  k.check_every = int(r.integer("solver.check_every", k.check_every));
  c.write_fields = r.boolean("output.fields", true);
  c.scheduler = r.choice("runtime.scheduler", "dmdas", {"dmdas", "dmda", "lws", "ws", "eager", "prio", "random"});
  c.cpu_tasks_with_gpu = r.boolean("runtime.cpu_tasks_with_gpu", false);
  r.reject_unknown();

  require(s.nx > 0, "grid.nx", "must be positive");
  require(s.ny > 0, "grid.ny", "must be positive");
  require(s.nz >= 2, "grid.nz", "must be at least 2");
  require(s.lx > 0, "grid.lx", "must be positive");
  require(s.ly > 0, "grid.ly", "must be positive");
  require(s.height > 0, "shell.height", "must be positive");
  require(s.omega2 > 0, "shell.omega2", "must be positive");
  require(s.lambda2 > 0, "shell.lambda2", "must be positive");
  require(s.courant_reference_nx >= 0, "shell.courant_reference_nx", "must be zero (off) or positive");
  require(c.tiles_x > 0 && s.nx % c.tiles_x == 0, "tiles.x",
          std::to_string(c.tiles_x) + " tiles do not divide grid.nx = " + std::to_string(s.nx));
  require(c.tiles_y > 0 && s.ny % c.tiles_y == 0, "tiles.y",
          std::to_string(c.tiles_y) + " tiles do not divide grid.ny = " + std::to_string(s.ny));
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
