// Field output: a time series of 3D fields in one HDF5 file laid out like netCDF-4
// (readable unmodified by netCDF4/xarray and h5py), plus an XDMF sidecar for ParaView
// (to be opened with ParaView's "XDMF Reader": its Xdmf3 readers skip HyperSlab fields).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tdc::io {

// Cell-centre coordinates of a regular 3D grid: each axis strictly increasing and
// evenly spaced (a single-point axis is allowed, its spacing is written as 0).
struct GridAxes {
  std::vector<double> x, y, z;  // sizes nx, ny, nz
  std::string units = "m";
};

// Writes one HDF5 file `NAME.h5` and keeps `NAME.xmf` next to it up to date.
//
// HDF5 layout (what netCDF-4 itself would write):
//   /time            (time)           unlimited, units "s"
//   /z, /y, /x       (z), (y), (x)    cell-centre coordinates
//   /<field>         (time, z, y, x)  FP64, chunked, one record per time step
// The coordinates are HDF5 dimension scales attached to every field.
// Global attributes: Conventions = "CF-1.8", dx, dy, dz, and the caller's ones.
//
// Argument errors throw std::invalid_argument; HDF5 and file-system failures throw
// std::runtime_error naming the failed call and the file.
class FieldWriter {
 public:
  // Creates `h5_path` and its sidecar (same stem, extension .xmf). Neither may exist
  // yet: throws std::runtime_error naming the path instead of overwriting.
  // `field_units` maps field names to their units; fields not listed get none.
  FieldWriter(const std::string& h5_path, const GridAxes& axes, const std::vector<std::string>& field_names,
              const std::vector<std::pair<std::string, std::string>>& global_attrs,
              const std::vector<std::pair<std::string, std::string>>& field_units = {});

  // Appends one output record at simulated time `time` (seconds; must be greater than
  // the previous record's). data[f] points to field_names[f]'s nx*ny*nz values in
  // C order [z][y][x] (x fastest). Flushes the file, then rewrites the sidecar, so a
  // crash loses at most the record being written.
  void append(double time, const std::vector<const double*>& data);

  // Number of records appended so far.
  int records() const;

  ~FieldWriter();  // closes the file; never throws

  FieldWriter(const FieldWriter&) = delete;
  FieldWriter& operator=(const FieldWriter&) = delete;

 private:
  struct Impl;  // keeps HDF5 headers out of this one
  std::unique_ptr<Impl> impl_;
};

}  // namespace tdc::io
