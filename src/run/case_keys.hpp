// The keys every case shares, read in one place for every kind of case: case.kind and case.name, the
// grid, the tiles and the runtime. Each case's parser calls these where it reads those keys, so
// defaults, accepted values and messages are the same for all kinds.
#pragma once
#include <string>
#include <vector>

#include "../../graph/runtime/grid.hpp"
#include "config_reader.hpp"

namespace tdc {

// The kind of case a file describes (key case.kind: "advection", the default, "elliptic" or "dycore").
std::string case_kind(const std::string& path, const std::vector<std::string>& overrides);

namespace config_detail {

// The --set overrides applied to a parsed file (an empty file is an empty table).
void apply_overrides(toml::value& root, const std::vector<std::string>& overrides);
// case.kind (here only `kind` is accepted) and case.name (default `name`).
std::string read_case_name(Reader& r, const char* kind, const std::string& name);
// The grid's fields must fit: `arrays` cell-sized arrays of doubles (a lower bound on what the case
// allocates) within the machine's physical memory, and fewer than 2^31 cells. Checked before any
// allocation or loop over the grid (error on grid.nx).
void require_memory(const Grid& g, int arrays, const char* what);
// grid.nx, grid.ny, grid.nz, grid.lx, grid.ly and, with `lz`, grid.lz; the defaults are g's values.
void read_grid(Reader& r, Grid& g, bool lz = true);
// grid.z_boundary: "periodic" or "rigid".
ZBoundary read_z_boundary(Reader& r, const char* fallback);
// tiles.x and tiles.y (default 1 each).
void read_tiles(Reader& r, int& tiles_x, int& tiles_y);
// runtime.scheduler (default auto: dmdas beside GPUs, lws on CPUs alone), runtime.cpu_tasks_with_gpu (default false) and runtime.placement
// ("tiles", the default: beside two GPUs or more each tile's tasks run on its home GPU; "scheduler").
void read_runtime(Reader& r, std::string& scheduler, bool& cpu_tasks_with_gpu, bool& tile_placement);
// Tiles must be positive in number and divide the grid.
void require_tiles_divide(int nx, int ny, int tiles_x, int tiles_y);

}  // namespace config_detail
}  // namespace tdc
