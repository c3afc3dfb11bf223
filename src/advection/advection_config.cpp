#include "advection_config.hpp"

#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <toml.hpp>

#include "../../codelets/mpdata/mpdata_pipeline.hpp"
#include "../run/case_keys.hpp"

namespace tdc {
namespace {

using namespace config_detail;

AdvectionConfig read(toml::value& root, const std::vector<std::string>& overrides) {
  apply_overrides(root, overrides);
  Reader r(root);
  AdvectionConfig c;
  c.name = read_case_name(r, "advection", "advection");
  const std::string flow = r.choice("case.flow", "rotation", {"translation", "rotation", "deformational"});
  c.flow = flow == "translation" ? Flow::Translation : flow == "rotation" ? Flow::Rotation : Flow::Deformational;

  c.grid = Grid{64, 64, 16, 1.0, 1.0, 1.0};
  read_grid(r, c.grid);
  c.z_boundary = read_z_boundary(r, "periodic");
  read_tiles(r, c.tiles_x, c.tiles_y);
  c.halo = int(r.integer("tiles.halo", 3));
  c.overlap = r.boolean("tiles.overlap", true);

  c.dt = r.number("time.dt", 0.002);
  c.steps = int(r.integer("time.steps", 100));

  c.mpdata.iord = int(r.integer("mpdata.iord", 2));
  c.mpdata.fct = r.boolean("mpdata.fct", true);
  c.mpdata.iga = r.boolean("mpdata.iga", false);
  c.mpdata.zb = c.z_boundary;
  read_mpdata_kernel(r, c.mpdata);

  // Each flow reads its own keys; another flow's key is an error, not silently ignored.
  const std::string by = "by case.flow = \"" + flow + "\"";
  if (c.flow == Flow::Translation) {
    c.velocity = r.numbers<3>("flow.velocity", c.velocity);
  } else {
    r.reject_if_set("flow.velocity", by + " (only by \"translation\")");
  }
  if (c.flow == Flow::Rotation) {
    c.omega = r.number("flow.omega", 2.0 * M_PI);
    c.rotation_center = r.numbers<2>("flow.center", c.rotation_center);
  } else {
    c.omega = 2.0 * M_PI;
    r.reject_if_set("flow.omega", by + " (only by \"rotation\")");
    r.reject_if_set("flow.center", by + " (only by \"rotation\")");
  }
  if (c.flow == Flow::Deformational) {
    c.period = r.number("flow.period", 1.0);
  } else {
    r.reject_if_set("flow.period", by + " (only by \"deformational\")");
  }

  c.shape = r.choice("initial.shape", "cone", {"cone", "gaussian"}) == "cone" ? Shape::Cone : Shape::Gaussian;
  c.center = r.numbers<3>("initial.center", c.center);
  c.radius = r.number("initial.radius", c.radius);
  c.amplitude = r.number("initial.amplitude", c.amplitude);
  c.background = r.number("initial.background", c.background);
  c.shape_dims = int(r.integer("initial.dims", 2));
  c.scale_height = r.number("density.scale_height", 0.0);
  c.mpdata.unit_density = c.scale_height == 0;  // G = 1: kernels that neither read nor divide by it (same bits)

  c.output_interval = int(r.integer("output.interval", 0));
  c.checkpoint_interval = int(r.integer("output.checkpoint_interval", 0));
  c.diagnostics_interval = int(r.integer("diagnostics.interval", 10));
  c.progress_seconds = r.number("output.progress_seconds", 5.0);
  read_runtime(r, c.scheduler, c.cpu_tasks_with_gpu, c.tile_placement);
  r.reject_unknown();

  // Values that cannot work.
  require(c.grid.nx > 0, "grid.nx", "must be positive");
  require(c.grid.ny > 0, "grid.ny", "must be positive");
  require(c.grid.nz > 0, "grid.nz", "must be positive");
  require(c.grid.lx > 0, "grid.lx", "must be positive");
  require(c.grid.ly > 0, "grid.ly", "must be positive");
  require(c.grid.lz > 0, "grid.lz", "must be positive");
  require_memory(c.grid, 8, "the advected field, its velocities, density and copies");
  require(c.tiles_x > 0, "tiles.x", "must be positive");
  require(c.tiles_y > 0, "tiles.y", "must be positive");
  require_tiles_divide(c.grid.nx, c.grid.ny, c.tiles_x, c.tiles_y);
  require(c.mpdata.iord >= 1 && c.mpdata.iord <= 4, "mpdata.iord", "must be between 1 and 4");
  const int need = mpdata::halo_needed(c.mpdata);
  require(c.halo >= need, "tiles.halo",
          "is " + std::to_string(c.halo) + " but MPDATA with iord=" + std::to_string(c.mpdata.iord) +
              (c.mpdata.fct ? " and fct" : "") + " needs at least " + std::to_string(need));
  require(c.grid.nx / c.tiles_x >= c.halo, "tiles.x",
          "tiles are narrower (" + std::to_string(c.grid.nx / c.tiles_x) + " columns) than the halo (" +
              std::to_string(c.halo) + ")");
  require(c.grid.ny / c.tiles_y >= c.halo, "tiles.y",
          "tiles are narrower (" + std::to_string(c.grid.ny / c.tiles_y) + " rows) than the halo (" +
              std::to_string(c.halo) + ")");
  require(c.dt > 0, "time.dt", "must be positive");
  require(c.steps > 0, "time.steps", "must be positive");
  require(c.period > 0, "flow.period", "must be positive");
  require(c.radius > 0, "initial.radius", "must be positive");
  require(c.shape_dims == 2 || c.shape_dims == 3, "initial.dims", "must be 2 or 3");
  require(c.scale_height >= 0, "density.scale_height", "must be zero (uniform G) or positive");
  require(c.scale_height == 0 || c.flow == Flow::Rotation || (c.flow == Flow::Translation && c.velocity[2] == 0.0),
          "density.scale_height", "a height-dependent G needs a flow without vertical motion");
  require(!(c.z_boundary == ZBoundary::Rigid && c.flow == Flow::Translation && c.velocity[2] != 0.0), "flow.velocity",
          "a uniform vertical velocity cannot cross rigid lids");
  require(!(c.z_boundary == ZBoundary::Rigid && c.flow == Flow::Deformational), "grid.z_boundary",
          "the deformational flow is periodic in z");
  require(c.output_interval >= 0, "output.interval", "must be zero or positive");
  require(c.checkpoint_interval >= 0, "output.checkpoint_interval", "must be zero or positive");
  require(c.diagnostics_interval >= 0, "diagnostics.interval", "must be zero (none) or positive");
  require(c.progress_seconds > 0, "output.progress_seconds", "must be positive");
  return c;
}

}  // namespace

AdvectionConfig load_config(const std::string& path, const std::vector<std::string>& overrides) {
  toml::value root = config_detail::parse_case_file(path);
  return read(root, overrides);
}

AdvectionConfig parse_config(const std::string& text, const std::vector<std::string>& overrides) {
  std::istringstream in(text);
  toml::value root;
  try {
    root = toml::parse(in, "<text>");
  } catch (const std::exception& e) {
    throw ConfigError("<text>", std::string("not valid TOML: ") + e.what());
  }
  return read(root, overrides);
}

std::vector<std::pair<std::string, std::string>> trajectory_fingerprint(const AdvectionConfig& c) {
  const auto num = config_detail::exact_text;
  auto nums = [&](const double* v, int n) {
    std::string s = "[";
    for (int q = 0; q < n; ++q) s += (q ? ", " : "") + num(v[q]);
    return s + "]";
  };
  return {{"case.name", c.name},
          {"case.flow", to_string(c.flow)},
          {"grid.nx", std::to_string(c.grid.nx)},
          {"grid.ny", std::to_string(c.grid.ny)},
          {"grid.nz", std::to_string(c.grid.nz)},
          {"grid.lx", num(c.grid.lx)},
          {"grid.ly", num(c.grid.ly)},
          {"grid.lz", num(c.grid.lz)},
          {"grid.z_boundary", c.z_boundary == ZBoundary::Rigid ? "rigid" : "periodic"},
          {"time.dt", num(c.dt)},
          {"mpdata.iord", std::to_string(c.mpdata.iord)},
          {"mpdata.fct", c.mpdata.fct ? "true" : "false"},
          {"mpdata.iga", c.mpdata.iga ? "true" : "false"},
          {"flow.velocity", nums(c.velocity.data(), 3)},
          {"flow.omega", num(c.omega)},
          {"flow.center", nums(c.rotation_center.data(), 2)},
          {"flow.period", num(c.period)},
          {"initial.shape", c.shape == Shape::Cone ? "cone" : "gaussian"},
          {"initial.center", nums(c.center.data(), 3)},
          {"initial.radius", num(c.radius)},
          {"initial.amplitude", num(c.amplitude)},
          {"initial.background", num(c.background)},
          {"initial.dims", std::to_string(c.shape_dims)},
          {"density.scale_height", num(c.scale_height)}};
}

const char* to_string(Flow f) {
  switch (f) {
    case Flow::Translation: return "translation";
    case Flow::Rotation: return "rotation";
    default: return "deformational";
  }
}

}  // namespace tdc
