#include "checkpoint.hpp"

#include <hdf5.h>
#include <hdf5_hl.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace tdc::io {
namespace {

constexpr const char* kFormat = "taskdycore-checkpoint-1";

// Owns an HDF5 identifier and closes it with the right function.
struct Id {
  hid_t id;
  herr_t (*close)(hid_t);
  Id(hid_t i, herr_t (*c)(hid_t)) : id(i), close(c) {}
  ~Id() {
    if (id >= 0) close(id);
  }
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
};

void check(herr_t r, const char* call, const std::string& path, const char* key = "--restart") {
  if (r < 0) throw CheckpointError(key, std::string("HDF5 call ") + call + " failed for '" + path + "'");
}

// FNV-1a over a dataset's bytes, as 16 hex digits: stored as each dataset's "fnv1a" attribute and
// verified on reading, so a changed byte anywhere in the data is refused.
std::string fnv1a(const std::vector<double>& v) {
  std::uint64_t h = 1469598103934665603ull;
  const auto* bytes = reinterpret_cast<const unsigned char*>(v.data());
  for (std::size_t b = 0; b < v.size() * sizeof(double); ++b) {
    h ^= bytes[b];
    h *= 1099511628211ull;
  }
  char s[17];
  std::snprintf(s, sizeof s, "%016llx", static_cast<unsigned long long>(h));
  return s;
}

std::string read_string_attr(hid_t obj, const char* name) {
  if (H5Aexists(obj, name) <= 0) return "";
  H5T_class_t cls;
  size_t size = 0;
  if (H5LTget_attribute_info(obj, ".", name, nullptr, &cls, &size) < 0 || cls != H5T_STRING) return "";
  std::string s(size + 1, '\0');
  if (H5LTget_attribute_string(obj, ".", name, s.data()) < 0) return "";
  s.resize(std::strlen(s.c_str()));
  return s;
}

// A string attribute of the object `object` under `obj` ("" if absent or not a string).
std::string read_string_attr_of(hid_t obj, const char* object, const char* name) {
  if (H5Aexists_by_name(obj, object, name, H5P_DEFAULT) <= 0) return "";
  H5T_class_t cls;
  size_t size = 0;
  if (H5LTget_attribute_info(obj, object, name, nullptr, &cls, &size) < 0 || cls != H5T_STRING || size > 64) return "";
  std::string s(size + 1, '\0');
  if (H5LTget_attribute_string(obj, object, name, s.data()) < 0) return "";
  s.resize(std::strlen(s.c_str()));
  return s;
}

}  // namespace

void write_checkpoint(const std::string& path, const CheckpointState& s, const Fingerprint& f) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const std::string tmp = path + ".tmp";
  const char* key = "checkpoint";
  std::filesystem::remove(tmp);
  try {
    const hid_t file = H5Fcreate(tmp.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
    check(file, "H5Fcreate", tmp, key);
    bool ok = H5LTset_attribute_string(file, "/", "format", kFormat) >= 0;
    const long long step = s.step;
    ok = ok && H5LTset_attribute_long_long(file, "/", "step", &step, 1) >= 0;
    ok = ok && H5LTset_attribute_double(file, "/", "time", &s.time, 1) >= 0;
    const hid_t config = H5Gcreate2(file, "config", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    for (const auto& [name, value] : f)
      ok = ok && config >= 0 && H5LTset_attribute_string(config, ".", name.c_str(), value.c_str()) >= 0;
    const hid_t budgets = H5Gcreate2(file, "budgets", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    for (const auto& [name, value] : s.budgets)
      ok = ok && budgets >= 0 && H5LTset_attribute_double(budgets, ".", name.c_str(), &value, 1) >= 0;
    const hsize_t dims[3] = {hsize_t(s.nz), hsize_t(s.ny), hsize_t(s.nx)};
    for (const auto& [name, data] : s.fields) {
      if (data.size() != std::size_t(s.nx) * s.ny * s.nz)
        throw CheckpointError(key, "field '" + name + "' has the wrong size for the checkpoint");
      ok = ok && H5LTmake_dataset_double(file, name.c_str(), 3, dims, data.data()) >= 0;
      ok = ok && H5LTset_attribute_string(file, name.c_str(), "fnv1a", fnv1a(data).c_str()) >= 0;
    }
    if (!s.series_names.empty()) {
      const hid_t series = H5Gcreate2(file, "series", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      ok = ok && series >= 0;
      for (std::size_t c = 0; ok && c < s.series_names.size(); ++c) {
        const hsize_t n = s.series[c].size();
        ok = H5LTmake_dataset_double(series, s.series_names[c].c_str(), 1, &n, s.series[c].data()) >= 0;
        ok =
            ok && H5LTset_attribute_string(series, s.series_names[c].c_str(), "fnv1a", fnv1a(s.series[c]).c_str()) >= 0;
        // HDF5 lists a group's members by name; the index keeps the columns' order.
        const int index = int(c);
        ok = ok && H5LTset_attribute_int(series, s.series_names[c].c_str(), "column", &index, 1) >= 0;
      }
      if (series >= 0) H5Gclose(series);
    }
    if (config >= 0) H5Gclose(config);
    if (budgets >= 0) H5Gclose(budgets);
    errno = 0;
    ok = (H5Fclose(file) >= 0) && ok;  // the close writes the last blocks: its result counts
    const int err = errno;
    if (!ok)
      throw CheckpointError(key, "writing the checkpoint '" + tmp + "' failed" +
                                     (err ? std::string(": ") + std::strerror(err) : std::string()) +
                                     " (the previous checkpoint is kept)");
    // The data must be on disk before the rename makes it the checkpoint.
    std::FILE* f = std::fopen(tmp.c_str(), "r+b");
    if (!f || ::fsync(fileno(f)) != 0) {
      const int e = errno;
      if (f) std::fclose(f);
      throw CheckpointError(key, "writing the checkpoint '" + tmp + "' failed: " + std::strerror(e) +
                                     " (the previous checkpoint is kept)");
    }
    std::fclose(f);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);  // the previous checkpoint stays as it was
    throw;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);  // atomic: readers see the old checkpoint or the new one
  if (ec)
    throw CheckpointError(
        key, "cannot rename '" + tmp + "' to '" + path + "': " + ec.message() + " (the previous checkpoint is kept)");
}

const std::vector<double>& CheckpointState::field(const std::string& name) const {
  for (const auto& [n, data] : fields)
    if (n == name) return data;
  throw CheckpointError("--restart", "the checkpoint has no field '" + name + "'");
}

CheckpointState read_checkpoint(const std::string& path, const Fingerprint& expected,
                                const std::vector<std::string>& field_names, bool with_fields, bool verify) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  if (!std::filesystem::is_regular_file(path)) throw CheckpointError("--restart", "no such file: '" + path + "'");
  if (H5Fis_hdf5(path.c_str()) <= 0)
    throw CheckpointError("--restart", "'" + path + "' is not an HDF5 file (truncated or not a checkpoint)");
  Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (file.id < 0) throw CheckpointError("--restart", "cannot open '" + path + "' (truncated or corrupt?)");
  if (read_string_attr(file.id, "format") != kFormat)
    throw CheckpointError("--restart", "'" + path + "' is not a taskdycore checkpoint (format attribute missing)");
  {
    Id config(H5Gopen2(file.id, "config", H5P_DEFAULT), H5Gclose);
    if (config.id < 0) throw CheckpointError("--restart", "'" + path + "' has no configuration record");
    for (const auto& [key, value] : expected) {
      const std::string stored = read_string_attr(config.id, key.c_str());
      if (stored != value)
        throw CheckpointError(key, "restart file '" + path + "' was written with " + key + " = " +
                                       (stored.empty() ? "(absent)" : stored) + ", this run has " + value);
    }
  }
  CheckpointState s;
  long long step = 0;
  check(H5LTget_attribute_long_long(file.id, "/", "step", &step), "H5LTget_attribute_long_long", path);
  if (step < 0 || step > INT_MAX)
    throw CheckpointError("--restart", "'" + path + "' is damaged: its step attribute is " + std::to_string(step));
  s.step = long(step);
  check(H5LTget_attribute_double(file.id, "/", "time", &s.time), "H5LTget_attribute_double", path);
  if (!std::isfinite(s.time) || s.time < 0)
    throw CheckpointError("--restart",
                          "'" + path + "' is damaged: its time attribute is not a finite, non-negative number");
  {
    Id budgets(H5Gopen2(file.id, "budgets", H5P_DEFAULT), H5Gclose);
    if (budgets.id >= 0) {
      std::vector<std::string> names;
      auto collect = [](hid_t, const char* name, const H5A_info_t*, void* out) -> herr_t {
        static_cast<std::vector<std::string>*>(out)->push_back(name);
        return 0;
      };
      H5Aiterate2(budgets.id, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect, &names);
      for (const auto& name : names) {
        double v = 0;
        check(H5LTget_attribute_double(budgets.id, ".", name.c_str(), &v), "H5LTget_attribute_double", path);
        s.budgets.emplace_back(name, v);
      }
    }
  }
  for (const std::string& name : field_names) {
    int rank = 0;
    hsize_t dims[3] = {0, 0, 0};
    if (H5LTfind_dataset(file.id, name.c_str()) <= 0 || H5LTget_dataset_ndims(file.id, name.c_str(), &rank) < 0 ||
        rank != 3 || H5LTget_dataset_info(file.id, name.c_str(), dims, nullptr, nullptr) < 0)
      throw CheckpointError("--restart", "'" + path + "' has no 3D dataset '" + name + "'");
    if (dims[0] < 1 || dims[1] < 1 || dims[2] < 1 || dims[0] > INT_MAX || dims[1] > INT_MAX || dims[2] > INT_MAX ||
        double(dims[0]) * double(dims[1]) * double(dims[2]) >= double(INT_MAX))
      throw CheckpointError("--restart", "'" + path + "': dataset '" + name + "' has impossible dimensions");
    if (name == field_names.front()) {
      s.nz = int(dims[0]);
      s.ny = int(dims[1]);
      s.nx = int(dims[2]);
    } else if (int(dims[0]) != s.nz || int(dims[1]) != s.ny || int(dims[2]) != s.nx) {
      throw CheckpointError(
          "--restart", "'" + path + "': dataset '" + name + "' differs in size from '" + field_names.front() + "'");
    }
    if (!with_fields && !verify) continue;
    const std::string sum = read_string_attr_of(file.id, name.c_str(), "fnv1a");
    if (sum.empty())
      throw CheckpointError("--restart", "'" + path + "': dataset '" + name + "' has no checksum (fnv1a attribute)");
    std::vector<double> data(std::size_t(s.nx) * s.ny * s.nz);
    if (H5LTread_dataset_double(file.id, name.c_str(), data.data()) < 0)
      throw CheckpointError("--restart", "cannot read '" + name + "' from '" + path + "' (truncated?)");
    if (fnv1a(data) != sum)
      throw CheckpointError("--restart",
                            "'" + path + "' is corrupt: the data of '" + name + "' do not match its checksum");
    if (with_fields) s.fields.emplace_back(name, std::move(data));
  }
  Id series(H5Lexists(file.id, "series", H5P_DEFAULT) > 0 ? H5Gopen2(file.id, "series", H5P_DEFAULT) : -1, H5Gclose);
  if (series.id >= 0) {
    std::vector<std::string> names;
    auto collect = [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
      static_cast<std::vector<std::string>*>(out)->push_back(name);
      return 0;
    };
    H5Literate(series.id, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect, &names);
    hsize_t length = 0;
    bool first = true;
    auto first_length = [&](hsize_t n) {  // every column as long as the first
      if (first) length = n;
      first = false;
      return length;
    };
    s.series_names.resize(names.size());
    s.series.resize(names.size());
    for (const auto& name : names) {
      int index = -1, rank = 0;
      hsize_t n = 0;
      if (H5LTget_attribute_int(series.id, name.c_str(), "column", &index) < 0 || index < 0 ||
          index >= int(names.size()) || H5LTget_dataset_ndims(series.id, name.c_str(), &rank) < 0 || rank != 1 ||
          H5LTget_dataset_info(series.id, name.c_str(), &n, nullptr, nullptr) < 0)
        throw CheckpointError("--restart", "'" + path + "': series '" + name + "' is damaged");
      if (!s.series_names[index].empty() || n > (hsize_t(1) << 31) || (!names.empty() && n != first_length(n)))
        throw CheckpointError("--restart", "'" + path + "': series '" + name + "' is damaged");
      s.series_names[index] = name;
      s.series[index].resize(n);
      if (H5LTread_dataset_double(series.id, name.c_str(), s.series[index].data()) < 0)
        throw CheckpointError("--restart", "cannot read series '" + name + "' from '" + path + "' (truncated?)");
      if (fnv1a(s.series[index]) != read_string_attr_of(series.id, name.c_str(), "fnv1a"))
        throw CheckpointError("--restart",
                              "'" + path + "' is corrupt: series '" + name + "' does not match its checksum");
    }
  }
  return s;
}

void check_resumable(const std::string& path, const Fingerprint& expected, const std::vector<std::string>& field_names,
                     int nx, int ny, int nz, long steps) {
  const CheckpointState s = read_checkpoint(path, expected, field_names, false, true);
  if (s.nx != nx || s.ny != ny || s.nz != nz)
    throw CheckpointError("--restart", "'" + path + "' holds fields of another size");
  if (s.step >= steps)
    throw CheckpointError("time.steps", "is " + std::to_string(steps) + " but the checkpoint '" + path +
                                            "' is already at step " + std::to_string(s.step));
}

}  // namespace tdc::io
