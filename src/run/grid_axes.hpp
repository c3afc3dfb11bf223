// The cell-centre coordinates of a grid, as the HDF5 field writer takes them.
#pragma once
#include "../../graph/runtime/grid.hpp"
#include "../io/field_writer.hpp"

namespace tdc {

inline io::GridAxes cell_centre_axes(const Grid& g) {
  io::GridAxes a;
  for (int i = 0; i < g.nx; ++i) a.x.push_back((i + 0.5) * g.dx());
  for (int j = 0; j < g.ny; ++j) a.y.push_back((j + 0.5) * g.dy());
  for (int k = 0; k < g.nz; ++k) a.z.push_back((k + 0.5) * g.dz());
  return a;
}

}  // namespace tdc
