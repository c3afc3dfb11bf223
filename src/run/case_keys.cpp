#include "case_keys.hpp"

#include <fstream>

namespace tdc {

std::string case_kind(const std::string& path, const std::vector<std::string>& overrides) {
  using namespace config_detail;
  std::ifstream in(path);
  if (!in) throw ConfigError("<file>", "cannot open '" + path + "'");
  toml::value root = parse_toml(in, path);
  apply_overrides(root, overrides);
  Reader r(root);
  return r.choice("case.kind", "advection", {"advection", "elliptic", "dycore"});
}

namespace config_detail {

void apply_overrides(toml::value& root, const std::vector<std::string>& overrides) {
  if (!root.is_table()) root = toml::table{};
  for (const auto& o : overrides) apply_override(root, o);
}

std::string read_case_name(Reader& r, const char* kind, const std::string& name) {
  r.choice("case.kind", kind, {kind});
  return r.text("case.name", name);
}

void read_grid(Reader& r, Grid& g, bool lz) {
  g.nx = int(r.integer("grid.nx", g.nx));
  g.ny = int(r.integer("grid.ny", g.ny));
  g.nz = int(r.integer("grid.nz", g.nz));
  g.lx = r.number("grid.lx", g.lx);
  g.ly = r.number("grid.ly", g.ly);
  if (lz) g.lz = r.number("grid.lz", g.lz);
}

ZBoundary read_z_boundary(Reader& r, const char* fallback) {
  return r.choice("grid.z_boundary", fallback, {"periodic", "rigid"}) == "rigid" ? ZBoundary::Rigid : ZBoundary::Periodic;
}

void read_tiles(Reader& r, int& tiles_x, int& tiles_y) {
  tiles_x = int(r.integer("tiles.x", 1));
  tiles_y = int(r.integer("tiles.y", 1));
}

void read_runtime(Reader& r, std::string& scheduler, bool& cpu_tasks_with_gpu) {
  scheduler = r.choice("runtime.scheduler", "dmdas", {"dmdas", "dmda", "lws", "ws", "eager", "prio", "random"});
  cpu_tasks_with_gpu = r.boolean("runtime.cpu_tasks_with_gpu", false);
}

void require_tiles_divide(int nx, int ny, int tiles_x, int tiles_y) {
  require(tiles_x > 0 && nx % tiles_x == 0, "tiles.x",
          std::to_string(tiles_x) + " tiles do not divide grid.nx = " + std::to_string(nx));
  require(tiles_y > 0 && ny % tiles_y == 0, "tiles.y",
          std::to_string(tiles_y) + " tiles do not divide grid.ny = " + std::to_string(ny));
}

}  // namespace config_detail
}  // namespace tdc
