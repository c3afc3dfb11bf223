#include "field_writer.hpp"

#include <cerrno>
#include <cstring>
#include <hdf5.h>
#include <hdf5_hl.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace tdc::io {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------
// HDF5 error handling and handle ownership

// The innermost message of HDF5's error stack is the specific cause
// (e.g. "errno = 17, error message = 'File exists'"); the outer ones are generic.
herr_t keep_innermost(unsigned n, const H5E_error2_t* err, void* out) {
  if (n == 0 && err->desc) *static_cast<std::string*>(out) = err->desc;
  return 0;
}

[[noreturn]] void fail(const std::string& call, const std::string& path) {
  std::string cause;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, keep_innermost, &cause);
  // A failed system call: HDF5 quotes the OS error as "errno = N, error message = '...'".
  const auto quoted = cause.find("error message = '");
  if (quoted != std::string::npos) {
    const auto start = quoted + 17, end = cause.find('\'', start);
    cause = cause.substr(start, end == std::string::npos ? std::string::npos : end - start);
  }
  for (char& c : cause)
    if (c == '\n') c = ' ';
  std::string msg = "cannot write '" + path + "' (HDF5 call " + call + ")";
  if (!cause.empty()) msg += ": " + cause;
  throw std::runtime_error(msg);
}

void check(herr_t status, const std::string& call, const std::string& path) {
  if (status < 0) fail(call, path);
}

// Owns one HDF5 identifier and closes it with the matching H5?close function.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer closer, const std::string& call, const std::string& path) : id_(id), closer_(closer) {
    if (id < 0) fail(call, path);
  }
  Handle(Handle&& o) noexcept : id_(o.id_), closer_(o.closer_) { o.id_ = H5I_INVALID_HID; }
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = o.id_;
      closer_ = o.closer_;
      o.id_ = H5I_INVALID_HID;
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }

  void reset() noexcept {
    if (id_ >= 0) closer_(id_);  // errors on close are not actionable here
    id_ = H5I_INVALID_HID;
  }
  hid_t get() const { return id_; }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer closer_ = nullptr;
};

// ---------------------------------------------------------------------------
// Argument checks (all done before anything is created on disk)

// Spacing of an evenly spaced, strictly increasing axis; 0 for a single point.
double axis_spacing(const std::vector<double>& v, const char* name) {
  const std::string axis = std::string("axis ") + name;
  if (v.empty()) throw std::invalid_argument(axis + " is empty");
  for (double c : v)
    if (!std::isfinite(c)) throw std::invalid_argument(axis + " has a non-finite value");
  if (v.size() == 1) return 0.0;
  const double d = (v.back() - v.front()) / static_cast<double>(v.size() - 1);
  for (size_t i = 1; i < v.size(); ++i) {
    const double step = v[i] - v[i - 1];
    if (!(step > 0.0)) throw std::invalid_argument(axis + " is not strictly increasing");
    if (std::abs(step - d) > 1e-6 * d)
      throw std::invalid_argument(axis + " is not evenly spaced (regular grid required)");
  }
  return d;
}

void check_field_names(const std::vector<std::string>& names) {
  if (names.empty()) throw std::invalid_argument("no field names given");
  std::set<std::string> seen = {"time", "x", "y", "z"};  // taken by the coordinates
  for (const auto& n : names) {
    if (n.empty() || n == "." || n.find('/') != std::string::npos)
      throw std::invalid_argument("invalid field name '" + n + "'");
    if (!seen.insert(n).second) throw std::invalid_argument("field name '" + n + "' is duplicated or reserved");
  }
}

void check_global_names(const std::vector<std::pair<std::string, std::string>>& attrs) {
  std::set<std::string> seen = {"Conventions", "dx", "dy", "dz"};  // written by us
  for (const auto& a : attrs)
    if (a.first.empty() || !seen.insert(a.first).second)
      throw std::invalid_argument("global attribute '" + a.first + "' is empty, duplicated or reserved");
}

// Units per field (index-aligned with `names`), "" where none was given.
std::vector<std::string> units_per_field(const std::vector<std::string>& names,
                                         const std::vector<std::pair<std::string, std::string>>& field_units) {
  std::vector<std::string> units(names.size());
  for (const auto& [field, unit] : field_units) {
    size_t f = 0;
    while (f < names.size() && names[f] != field) ++f;
    if (f == names.size()) throw std::invalid_argument("units given for unknown field '" + field + "'");
    units[f] = unit;
  }
  return units;
}

// ---------------------------------------------------------------------------
// HDF5 objects, laid out the way netCDF-4 writes them

// netCDF-4 stores text attributes (NC_CHAR) as fixed-length null-terminated strings in
// a scalar dataspace; netCDF4-python and xarray return them as str. A type cannot have
// size 0, so an empty string gets a null dataspace, again as netCDF does.
void write_string_attr(hid_t obj, const std::string& name, const std::string& value, const std::string& path) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "H5Tcopy", path);
  check(H5Tset_size(type.get(), value.empty() ? 1 : value.size()), "H5Tset_size", path);
  check(H5Tset_strpad(type.get(), H5T_STR_NULLTERM), "H5Tset_strpad", path);
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "H5Tset_cset", path);
  Handle space(H5Screate(value.empty() ? H5S_NULL : H5S_SCALAR), H5Sclose, "H5Screate", path);
  Handle attr(H5Acreate2(obj, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              "H5Acreate2(" + name + ")", path);
  if (!value.empty()) check(H5Awrite(attr.get(), type.get(), value.data()), "H5Awrite(" + name + ")", path);
}

void write_double_attr(hid_t obj, const std::string& name, double value, const std::string& path) {
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, "H5Screate", path);
  Handle attr(H5Acreate2(obj, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              "H5Acreate2(" + name + ")", path);
  check(H5Awrite(attr.get(), H5T_NATIVE_DOUBLE, &value), "H5Awrite(" + name + ")", path);
}

constexpr unsigned kCreationOrder = H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED;

Handle create_file(const std::string& path) {
  // Creation order tracked *and* indexed, as netCDF-4 does: netCDF then lists variables
  // and attributes in the order written (tracked-only files upset older netCDF).
  Handle fcpl(H5Pcreate(H5P_FILE_CREATE), H5Pclose, "H5Pcreate", path);
  check(H5Pset_link_creation_order(fcpl.get(), kCreationOrder), "H5Pset_link_creation_order", path);
  check(H5Pset_attr_creation_order(fcpl.get(), kCreationOrder), "H5Pset_attr_creation_order", path);
  // HDF5 1.10 keeps an exclusive lock on a file open for writing, which would stop
  // ParaView or h5py from looking at the records written so far while the run goes on.
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "H5Pcreate", path);
  check(H5Pset_file_locking(fapl.get(), false, true), "H5Pset_file_locking", path);
  // H5F_ACC_EXCL: fail rather than truncate a file that appeared since our check.
  return Handle(H5Fcreate(path.c_str(), H5F_ACC_EXCL, fcpl.get(), fapl.get()), H5Fclose, "H5Fcreate", path);
}

// A chunked FP64 dataset of the given shape; `max` may hold H5S_UNLIMITED.
Handle create_dataset(hid_t file, const std::string& name, const std::vector<hsize_t>& dims,
                      const std::vector<hsize_t>& max, const std::vector<hsize_t>& chunk, const std::string& path) {
  const int rank = static_cast<int>(dims.size());
  Handle space(H5Screate_simple(rank, dims.data(), max.data()), H5Sclose, "H5Screate_simple", path);
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "H5Pcreate", path);
  check(H5Pset_chunk(dcpl.get(), rank, chunk.data()), "H5Pset_chunk(" + name + ")", path);
  check(H5Pset_attr_creation_order(dcpl.get(), kCreationOrder), "H5Pset_attr_creation_order", path);
  // Every element is written before it is read: filling chunks first is wasted I/O.
  check(H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER), "H5Pset_fill_time", path);
  return Handle(H5Dcreate2(file, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
                H5Dclose, "H5Dcreate2(" + name + ")", path);
}

// A fixed-length coordinate variable (x, y or z) made a dimension scale of its name.
Handle create_axis(hid_t file, const std::string& name, const std::vector<double>& values, const std::string& units,
                   const std::string& path) {
  const hsize_t n = values.size();
  Handle ds = create_dataset(file, name, {n}, {n}, {n}, path);
  check(H5Dwrite(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), "H5Dwrite(" + name + ")",
        path);
  check(H5DSset_scale(ds.get(), name.c_str()), "H5DSset_scale(" + name + ")", path);
  write_string_attr(ds.get(), "units", units, path);
  write_string_attr(ds.get(), "long_name", name + " coordinate of cell centres", path);
  std::string axis = name;
  for (char& c : axis) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  write_string_attr(ds.get(), "axis", axis, path);
  if (name == "z") write_string_attr(ds.get(), "positive", "up", path);
  return ds;
}

// The unlimited time coordinate. Units "s" rather than "seconds since <date>": the run
// has no calendar, and xarray decodes only "<unit> since <date>" as dates and only
// spelled-out units ("seconds") as timedeltas, so "s" stays plain float seconds.
Handle create_time(hid_t file, const std::string& path) {
  Handle ds = create_dataset(file, "time", {0}, {H5S_UNLIMITED}, {512}, path);
  check(H5DSset_scale(ds.get(), "time"), "H5DSset_scale(time)", path);
  write_string_attr(ds.get(), "units", "s", path);
  write_string_attr(ds.get(), "long_name", "simulated time since start", path);
  write_string_attr(ds.get(), "axis", "T", path);
  return ds;
}

// One record per chunk keeps an append a plain write of whole chunks. Records above
// this size are split along z, then y, then x, so that a reader wanting a few levels
// does not read a whole record, and HDF5's 4 GiB limit per chunk is never reached.
constexpr hsize_t kMaxChunkBytes = hsize_t{4} << 20;

std::vector<hsize_t> field_chunk(hsize_t nz, hsize_t ny, hsize_t nx) {
  std::vector<hsize_t> c = {1, nz, ny, nx};
  for (size_t d = 1; d < c.size(); ++d)
    while (c[d] > 1 && c[1] * c[2] * c[3] * sizeof(double) > kMaxChunkBytes) c[d] = (c[d] + 1) / 2;
  return c;
}

// Writes `values` (one record of shape `record_shape`) as record `index` of `ds`,
// extending its first (unlimited) dimension to index + 1.
void write_record(hid_t ds, hsize_t index, const std::vector<hsize_t>& record_shape, const double* values,
                  const std::string& name, const std::string& path) {
  std::vector<hsize_t> dims = {index + 1}, start = {index}, count = {1};
  for (hsize_t n : record_shape) {
    dims.push_back(n);
    start.push_back(0);
    count.push_back(n);
  }
  const int rank = static_cast<int>(dims.size());
  check(H5Dset_extent(ds, dims.data()), "H5Dset_extent(" + name + ")", path);
  Handle file_space(H5Dget_space(ds), H5Sclose, "H5Dget_space(" + name + ")", path);
  check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
        "H5Sselect_hyperslab(" + name + ")", path);
  Handle mem_space(H5Screate_simple(rank, count.data(), nullptr), H5Sclose, "H5Screate_simple", path);
  check(H5Dwrite(ds, H5T_NATIVE_DOUBLE, mem_space.get(), file_space.get(), H5P_DEFAULT, values),
        "H5Dwrite(" + name + ")", path);
}

// ---------------------------------------------------------------------------
// XDMF sidecar

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);  // round-trips exactly
  return buf;
}

// Writes `text` to `path` through a temporary file and a rename, so a reader sees
// either the previous complete file or the new one, never a half-written one.
void replace_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    errno = 0;
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      const int err = errno;
      std::error_code rm;
      fs::remove(tmp, rm);
      throw std::runtime_error("cannot write '" + tmp + "'" +
                               (err ? std::string(": ") + std::strerror(err) : std::string()));
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw std::runtime_error("cannot rename '" + tmp + "' to '" + path + "': " + ec.message());
}

}  // namespace

// ---------------------------------------------------------------------------

struct FieldWriter::Impl {
  std::string h5_path, xmf_path;
  hsize_t nx = 0, ny = 0, nz = 0;
  double origin[3] = {0, 0, 0};   // z, y, x: XDMF lists the slowest axis first
  double spacing[3] = {0, 0, 0};  // z, y, x
  std::vector<std::string> names;
  std::vector<double> times;  // of the records written so far
  // Declared before the datasets so that it is closed after them.
  Handle file;
  Handle time;
  std::vector<Handle> fields;

  void create(const GridAxes& axes, const std::vector<std::pair<std::string, std::string>>& globals,
              const std::vector<std::string>& units);
  void create_field(const std::string& name, const std::string& units, hid_t const scales[4]);
  std::string xdmf() const;
  std::string xdmf_record(size_t r) const;
  void write_sidecar() const { replace_file(xmf_path, xdmf()); }
};

void FieldWriter::Impl::create(const GridAxes& axes, const std::vector<std::pair<std::string, std::string>>& globals,
                               const std::vector<std::string>& units) {
  const std::string& path = h5_path;
  file = create_file(path);
  const hid_t root = file.get();
  write_string_attr(root, "Conventions", "CF-1.8", path);
  for (const auto& [name, value] : globals) write_string_attr(root, name, value, path);
  write_double_attr(root, "dx", spacing[2], path);
  write_double_attr(root, "dy", spacing[1], path);
  write_double_attr(root, "dz", spacing[0], path);

  // Coordinates first, in dimension order, so netCDF numbers the dims time, z, y, x.
  time = create_time(root, path);
  Handle z = create_axis(root, "z", axes.z, axes.units, path);
  Handle y = create_axis(root, "y", axes.y, axes.units, path);
  Handle x = create_axis(root, "x", axes.x, axes.units, path);
  const hid_t scales[4] = {time.get(), z.get(), y.get(), x.get()};
  for (size_t f = 0; f < names.size(); ++f) create_field(names[f], units[f], scales);
  check(H5Fflush(root, H5F_SCOPE_LOCAL), "H5Fflush", path);
  write_sidecar();
}

void FieldWriter::Impl::create_field(const std::string& name, const std::string& units, hid_t const scales[4]) {
  Handle ds =
      create_dataset(file.get(), name, {0, nz, ny, nx}, {H5S_UNLIMITED, nz, ny, nx}, field_chunk(nz, ny, nx), h5_path);
  for (unsigned d = 0; d < 4; ++d)
    check(H5DSattach_scale(ds.get(), scales[d], d), "H5DSattach_scale(" + name + ")", h5_path);
  write_string_attr(ds.get(), "long_name", name, h5_path);
  if (!units.empty()) write_string_attr(ds.get(), "units", units, h5_path);
  fields.push_back(std::move(ds));
}

// An XDMF 2 temporal collection: per record a 3DCoRectMesh whose points are the cell
// centres, and per field an Attribute that cuts record r out of the 4D dataset with a
// HyperSlab (start, stride, count rows; dims listed slowest first, like HDF5's).
// Checked with ParaView 5.11: its "XDMF Reader" reads this; its Xdmf3 readers read the
// mesh and times but skip every HyperSlab attribute, hence the note in the file.
std::string FieldWriter::Impl::xdmf() const {
  std::ostringstream s;
  s << "<?xml version=\"1.0\" ?>\n"
    << "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
    << "<!-- ParaView: open with the XDMF Reader (Xdmf2); the Xdmf3 readers skip HyperSlab fields. -->\n"
    << "<Xdmf Version=\"2.0\">\n"
    << "  <Domain>\n"
    << "    <Grid Name=\"fields\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  for (size_t r = 0; r < times.size(); ++r) s << xdmf_record(r);
  s << "    </Grid>\n"
    << "  </Domain>\n"
    << "</Xdmf>\n";
  return s.str();
}

std::string FieldWriter::Impl::xdmf_record(size_t r) const {
  // Relative to the sidecar, which sits next to the HDF5 file: the pair can be moved.
  const std::string h5_name = xml_escape(fs::path(h5_path).filename().string());
  const std::string dims = std::to_string(nz) + " " + std::to_string(ny) + " " + std::to_string(nx);
  const std::string f64 = "NumberType=\"Float\" Precision=\"8\"";
  std::ostringstream s;
  s << "      <Grid Name=\"record " << r << "\" GridType=\"Uniform\">\n"
    << "        <Time Value=\"" << num(times[r]) << "\"/>\n"
    << "        <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"" << dims << "\"/>\n"
    << "        <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n"
    << "          <DataItem Name=\"Origin\" Dimensions=\"3\" " << f64 << " Format=\"XML\">" << num(origin[0]) << " "
    << num(origin[1]) << " " << num(origin[2]) << "</DataItem>\n"
    << "          <DataItem Name=\"Spacing\" Dimensions=\"3\" " << f64 << " Format=\"XML\">" << num(spacing[0]) << " "
    << num(spacing[1]) << " " << num(spacing[2]) << "</DataItem>\n"
    << "        </Geometry>\n";
  for (const auto& name : names) {
    s << "        <Attribute Name=\"" << xml_escape(name)
      << "\" AttributeType=\"Scalar\" Center=\"Node\">\n"
      // The slab's declared shape is the mesh's (rank 3), not the count (1 nz ny nx):
      // ParaView's XDMF Reader fails on "1 nz ny nx" ("Can't Write Temp Dataset").
      << "          <DataItem ItemType=\"HyperSlab\" Dimensions=\"" << dims << "\" Type=\"HyperSlab\">\n"
      << "            <DataItem Dimensions=\"3 4\" NumberType=\"Int\" Format=\"XML\">" << r << " 0 0 0  1 1 1 1  1 "
      << dims << "</DataItem>\n"
      << "            <DataItem Dimensions=\"" << times.size() << " " << dims << "\" " << f64 << " Format=\"HDF\">"
      << h5_name << ":/" << xml_escape(name) << "</DataItem>\n"
      << "          </DataItem>\n"
      << "        </Attribute>\n";
  }
  s << "      </Grid>\n";
  return s.str();
}

// ---------------------------------------------------------------------------

FieldWriter::FieldWriter(const std::string& h5_path, const GridAxes& axes, const std::vector<std::string>& field_names,
                         const std::vector<std::pair<std::string, std::string>>& global_attrs,
                         const std::vector<std::pair<std::string, std::string>>& field_units)
    : impl_(std::make_unique<Impl>()) {
  Impl& w = *impl_;
  w.h5_path = h5_path;
  w.xmf_path = fs::path(h5_path).replace_extension(".xmf").string();
  if (w.xmf_path == h5_path) throw std::invalid_argument("output file '" + h5_path + "' ends in .xmf");
  const double spacing[3] = {axis_spacing(axes.z, "z"), axis_spacing(axes.y, "y"), axis_spacing(axes.x, "x")};
  check_field_names(field_names);
  check_global_names(global_attrs);
  const std::vector<std::string> units = units_per_field(field_names, field_units);
  for (const auto& p : {h5_path, w.xmf_path})
    if (fs::exists(p)) throw std::runtime_error("output file '" + p + "' already exists; not overwriting it");

  w.nz = axes.z.size(), w.ny = axes.y.size(), w.nx = axes.x.size();
  w.origin[0] = axes.z.front(), w.origin[1] = axes.y.front(), w.origin[2] = axes.x.front();
  for (int d = 0; d < 3; ++d) w.spacing[d] = spacing[d];
  w.names = field_names;

  // Report HDF5 failures through exceptions only, not the library's stderr dump.
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  try {
    w.create(axes, global_attrs, units);
  } catch (...) {
    // Leave no half-made output behind: it would block the next attempt.
    const bool created = w.file.get() >= 0;
    w.fields.clear();
    w.time.reset();
    w.file.reset();
    if (created) {
      std::error_code ec;
      fs::remove(h5_path, ec);
      fs::remove(w.xmf_path, ec);
    }
    throw;
  }
}

void FieldWriter::append(double time, const std::vector<const double*>& data) {
  Impl& w = *impl_;
  if (data.size() != w.names.size())
    throw std::invalid_argument("append: got " + std::to_string(data.size()) + " fields, expected " +
                                std::to_string(w.names.size()));
  for (size_t f = 0; f < data.size(); ++f)
    if (!data[f]) throw std::invalid_argument("append: null data for field '" + w.names[f] + "'");
  if (!std::isfinite(time) || (!w.times.empty() && !(time > w.times.back())))
    throw std::invalid_argument("append: time " + num(time) + " is not after the previous record");

  // Fields first and the time coordinate last, then one flush, which writes HDF5's
  // cached metadata so that the file on disk describes every record so far. A failed
  // append leaves records() as it was, and the next append rewrites the same slot.
  const hsize_t r = w.times.size();
  for (size_t f = 0; f < data.size(); ++f)
    write_record(w.fields[f].get(), r, {w.nz, w.ny, w.nx}, data[f], w.names[f], w.h5_path);
  write_record(w.time.get(), r, {}, &time, "time", w.h5_path);
  check(H5Fflush(w.file.get(), H5F_SCOPE_LOCAL), "H5Fflush", w.h5_path);
  w.times.push_back(time);
  w.write_sidecar();  // only after the flush: it must not name unwritten records
}

int FieldWriter::records() const { return static_cast<int>(impl_->times.size()); }

FieldWriter::~FieldWriter() = default;  // Impl's Handles close datasets, then the file

}  // namespace tdc::io
