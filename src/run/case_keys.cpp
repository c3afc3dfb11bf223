#include "case_keys.hpp"

#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <fstream>

namespace tdc {

std::string case_kind(const std::string& path, const std::vector<std::string>& overrides) {
  using namespace config_detail;
  toml::value root = parse_case_file(path);
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
  const std::string n = r.text("case.name", name);
  // The name becomes part of the default output path (runs/<name>-<time>) and is printed: letters,
  // digits, '_', '-', '.' and '+' only, starting with a letter or digit, so that it can neither
  // leave runs/, make subfolders nor carry terminal control codes.
  bool ok = !n.empty() && n.size() <= 64 && std::isalnum((unsigned char)n[0]);
  for (const char ch : n)
    ok = ok && (std::isalnum((unsigned char)ch) || ch == '_' || ch == '-' || ch == '.' || ch == '+');
  require(ok, "case.name",
          "must be 1 to 64 letters, digits, '_', '-', '.' or '+', starting with a letter or digit (it names the "
          "output directory)");
  return n;
}

void require_memory(const Grid& g, int arrays, const char* what) {
  // Sizes first in 64 bits and floating point, so nothing wraps; then against the machine's memory.
  const double cells = double(g.nx) * double(g.ny) * double(g.nz);
  const double need = cells * arrays * double(sizeof(double));
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  const double have = pages > 0 && page > 0 ? double(pages) * double(page) : 0.0;
  char text[256];
  std::snprintf(text, sizeof text,
                "the grid %dx%dx%d (%.3g cells) needs at least %.3g GiB for %s, more than this machine's %.3g GiB of "
                "memory",
                g.nx, g.ny, g.nz, cells, need / 1073741824.0, what, have / 1073741824.0);
  require(cells < double(INT32_MAX), "grid.nx",
          "the grid " + std::to_string(g.nx) + "x" + std::to_string(g.ny) + "x" + std::to_string(g.nz) +
              " has 2^31 cells or more (field indices are 32-bit)");
  require(have == 0.0 || need <= have, "grid.nx", text);
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
  return r.choice("grid.z_boundary", fallback, {"periodic", "rigid"}) == "rigid" ? ZBoundary::Rigid
                                                                                 : ZBoundary::Periodic;
}

void read_tiles(Reader& r, int& tiles_x, int& tiles_y) {
  tiles_x = int(r.integer("tiles.x", 1));
  tiles_y = int(r.integer("tiles.y", 1));
}

void read_runtime(Reader& r, std::string& scheduler, bool& cpu_tasks_with_gpu, bool& tile_placement) {
  scheduler = r.choice("runtime.scheduler", "auto", {"auto", "dmdas", "dmda", "lws", "ws", "eager", "prio", "random"});
  cpu_tasks_with_gpu = r.boolean("runtime.cpu_tasks_with_gpu", false);
  tile_placement = r.choice("runtime.placement", "tiles", {"tiles", "scheduler"}) == "tiles";
}

void require_tiles_divide(int nx, int ny, int tiles_x, int tiles_y) {
  require(tiles_x > 0 && nx % tiles_x == 0, "tiles.x",
          std::to_string(tiles_x) + " tiles do not divide grid.nx = " + std::to_string(nx));
  require(tiles_y > 0 && ny % tiles_y == 0, "tiles.y",
          std::to_string(tiles_y) + " tiles do not divide grid.ny = " + std::to_string(ny));
}

}  // namespace config_detail
}  // namespace tdc
