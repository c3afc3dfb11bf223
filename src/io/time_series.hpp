// Time series (diagnostics) as an HDF5 file of 1D datasets sharing a `step` dimension scale, written
// to a temporary name and renamed into place. No StarPU.
#pragma once
#include <string>
#include <vector>

namespace tdc::io {

// columns[c] has one value per record; names[0] must be "step" (the dimension).
void write_time_series(const std::string& path, const std::vector<std::string>& names,
                       const std::vector<std::vector<double>>& columns,
                       const std::vector<std::pair<std::string, std::string>>& attributes);

}  // namespace tdc::io
