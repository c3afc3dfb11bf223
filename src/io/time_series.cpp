#include "time_series.hpp"

#include <hdf5.h>
#include <hdf5_hl.h>

#include <filesystem>
#include <stdexcept>

namespace tdc::io {

void write_time_series(const std::string& path, const std::vector<std::string>& names,
                       const std::vector<std::vector<double>>& columns,
                       const std::vector<std::pair<std::string, std::string>>& attributes) {
  if (names.empty() || names[0] != "step" || names.size() != columns.size())
    throw std::invalid_argument("write_time_series: the first column must be 'step'");
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const std::string tmp = path + ".tmp";
  std::filesystem::remove(tmp);
  const hid_t file = H5Fcreate(tmp.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0) throw std::runtime_error("cannot create " + tmp);
  bool ok = true;
  for (const auto& [k, v] : attributes) ok = ok && H5LTset_attribute_string(file, "/", k.c_str(), v.c_str()) >= 0;
  const hsize_t n = columns[0].size();
  for (std::size_t c = 0; c < names.size(); ++c)
    ok = ok && H5LTmake_dataset_double(file, names[c].c_str(), 1, &n, columns[c].data()) >= 0;
  // `step` is the dimension of every series (netCDF/xarray read it as the coordinate).
  const hid_t step = H5Dopen2(file, "step", H5P_DEFAULT);
  ok = ok && step >= 0 && H5DSset_scale(step, "step") >= 0;
  for (std::size_t c = 1; c < names.size() && ok; ++c) {
    const hid_t d = H5Dopen2(file, names[c].c_str(), H5P_DEFAULT);
    ok = d >= 0 && H5DSattach_scale(d, step, 0) >= 0;
    if (d >= 0) H5Dclose(d);
  }
  if (step >= 0) H5Dclose(step);
  H5Fclose(file);
  if (!ok) {
    std::filesystem::remove(tmp);
    throw std::runtime_error("writing " + path + " failed");
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace tdc::io
