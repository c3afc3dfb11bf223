// Tests for tdc::io::FieldWriter: written files are reread with the HDF5 C API.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <hdf5_hl.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../src/io/field_writer.hpp"

namespace {

namespace fs = std::filesystem;
using tdc::io::FieldWriter;
using tdc::io::GridAxes;

constexpr int kNx = 5, kNy = 4, kNz = 3, kRecords = 3;
const std::vector<std::string> kFields = {"theta", "w"};

GridAxes sample_axes() {
  GridAxes a;
  for (int i = 0; i < kNx; ++i) a.x.push_back(50.0 + 100.0 * i);
  for (int j = 0; j < kNy; ++j) a.y.push_back(100.0 + 200.0 * j);
  for (int k = 0; k < kNz; ++k) a.z.push_back(25.0 + 50.0 * k);
  return a;
}

// Distinct for every field, record and point, so any mix-up shows.
double sample_value(int f, int r, int k, int j, int i) { return 1e4 * f + 1e3 * r + 100 * k + 10 * j + i; }

std::vector<double> sample_record(int f, int r) {
  std::vector<double> v;
  for (int k = 0; k < kNz; ++k)
    for (int j = 0; j < kNy; ++j)
      for (int i = 0; i < kNx; ++i) v.push_back(sample_value(f, r, k, j, i));
  return v;
}

double sample_time(int r) { return 60.0 * r; }

void append_sample_record(FieldWriter& w, int r) {
  const auto a = sample_record(0, r), b = sample_record(1, r);
  w.append(sample_time(r), {a.data(), b.data()});
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A small well-formedness check: one root element, tags nest and close, quoted
// attribute values end. (tests/io/check_readers.py also parses it with a real parser.)
std::string xml_problem(const std::string& s) {
  std::vector<std::string> open;
  int roots = 0;
  for (size_t at = s.find('<'); at != std::string::npos; at = s.find('<', at)) {
    if (s.compare(at, 2, "<?") == 0 || s.compare(at, 2, "<!") == 0) {
      at = s.find('>', at);
      if (at == std::string::npos) return "unterminated declaration";
      continue;
    }
    size_t end = at + 1;
    for (char quote = 0; end < s.size() && (quote || s[end] != '>'); ++end)
      if (s[end] == '"' || s[end] == '\'') quote = (quote == s[end]) ? 0 : (quote ? quote : s[end]);
    if (end >= s.size()) return "unterminated tag at offset " + std::to_string(at);
    const bool closing = s[at + 1] == '/', empty = s[end - 1] == '/';
    const size_t name_at = at + (closing ? 2 : 1);
    const std::string name = s.substr(name_at, s.find_first_of(" \t\n/>", name_at) - name_at);
    if (closing) {
      if (open.empty() || open.back() != name) return "unexpected </" + name + ">";
      open.pop_back();
    } else {
      if (open.empty() && ++roots > 1) return "more than one root element";
      if (!empty) open.push_back(name);
    }
    at = end;
  }
  if (!open.empty()) return "<" + open.back() + "> not closed";
  return roots == 1 ? "" : "no root element";
}

// --- HDF5 reading helpers (the test owns these ids; closed with the file) ---

std::string string_attr(hid_t obj, const char* name) {
  const hid_t attr = H5Aopen(obj, name, H5P_DEFAULT);
  if (attr < 0) return "<missing " + std::string(name) + ">";
  const hid_t type = H5Aget_type(attr), space = H5Aget_space(attr);
  std::string value;
  EXPECT_EQ(H5Tget_class(type), H5T_STRING) << name;
  EXPECT_EQ(H5Tis_variable_str(type), 0) << name << ": netCDF-style text is fixed-length";
  if (H5Sget_simple_extent_type(space) != H5S_NULL) {
    std::vector<char> buf(H5Tget_size(type) + 1, '\0');
    EXPECT_GE(H5Aread(attr, type, buf.data()), 0) << name;
    value = buf.data();
  }
  H5Sclose(space);
  H5Tclose(type);
  H5Aclose(attr);
  return value;
}

double double_attr(hid_t obj, const char* name) {
  double v = -1.0;
  const hid_t attr = H5Aopen(obj, name, H5P_DEFAULT);
  EXPECT_GE(attr, 0) << name;
  EXPECT_GE(H5Aread(attr, H5T_NATIVE_DOUBLE, &v), 0) << name;
  H5Aclose(attr);
  return v;
}

std::vector<hsize_t> dims_of(hid_t ds, std::vector<hsize_t>* max = nullptr) {
  const hid_t space = H5Dget_space(ds);
  std::vector<hsize_t> dims(H5Sget_simple_extent_ndims(space)), maxdims(dims.size());
  H5Sget_simple_extent_dims(space, dims.data(), maxdims.data());
  H5Sclose(space);
  if (max) *max = maxdims;
  return dims;
}

std::vector<double> read_all(hid_t ds) {
  size_t n = 1;
  for (hsize_t d : dims_of(ds)) n *= d;
  std::vector<double> v(n);
  EXPECT_GE(H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), 0);
  return v;
}

std::vector<hsize_t> chunk_of(hid_t ds) {
  const hid_t dcpl = H5Dget_create_plist(ds);
  std::vector<hsize_t> chunk(4, 0);
  EXPECT_EQ(H5Pget_layout(dcpl), H5D_CHUNKED);
  EXPECT_EQ(H5Pget_chunk(dcpl, 4, chunk.data()), 4);
  H5Pclose(dcpl);
  return chunk;
}

class FieldWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) / (std::string("field_writer_") + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path h5() const { return dir_ / "out.h5"; }
  fs::path xmf() const { return dir_ / "out.xmf"; }

  std::unique_ptr<FieldWriter> make_writer() const {
    return std::make_unique<FieldWriter>(
        h5().string(), sample_axes(), kFields,
        std::vector<std::pair<std::string, std::string>>{{"title", "unit test"}, {"case_name", "tiny"}},
        std::vector<std::pair<std::string, std::string>>{{"theta", "K"}, {"w", "m s-1"}});
  }

  fs::path dir_;
};

TEST_F(FieldWriterTest, WritesValuesDimensionsAndAttributes) {
  {
    auto w = make_writer();
    for (int r = 0; r < kRecords; ++r) append_sample_record(*w, r);
    EXPECT_EQ(w->records(), kRecords);
  }
  const hid_t file = H5Fopen(h5().c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);

  EXPECT_EQ(string_attr(file, "Conventions"), "CF-1.8");
  EXPECT_EQ(string_attr(file, "title"), "unit test");
  EXPECT_EQ(string_attr(file, "case_name"), "tiny");
  EXPECT_DOUBLE_EQ(double_attr(file, "dx"), 100.0);
  EXPECT_DOUBLE_EQ(double_attr(file, "dy"), 200.0);
  EXPECT_DOUBLE_EQ(double_attr(file, "dz"), 50.0);

  // Coordinates: dimension scales named after themselves, holding the axes.
  const GridAxes axes = sample_axes();
  const std::vector<std::pair<const char*, std::vector<double>>> coords = {
      {"time", {sample_time(0), sample_time(1), sample_time(2)}}, {"z", axes.z}, {"y", axes.y}, {"x", axes.x}};
  std::vector<hid_t> scales;
  for (const auto& [name, values] : coords) {
    const hid_t ds = H5Dopen2(file, name, H5P_DEFAULT);
    ASSERT_GE(ds, 0) << name;
    EXPECT_GT(H5DSis_scale(ds), 0) << name;
    char scale_name[16] = {0};
    EXPECT_GT(H5DSget_scale_name(ds, scale_name, sizeof scale_name), 0) << name;
    EXPECT_STREQ(scale_name, name);
    EXPECT_EQ(read_all(ds), values) << name;
    EXPECT_FALSE(string_attr(ds, "units").empty()) << name;
    scales.push_back(ds);
  }
  std::vector<hsize_t> time_max;
  dims_of(scales[0], &time_max);
  EXPECT_EQ(time_max[0], H5S_UNLIMITED);
  EXPECT_EQ(string_attr(scales[0], "units"), "s");
  EXPECT_EQ(string_attr(scales[3], "units"), "m");

  const char* units[] = {"K", "m s-1"};
  for (int f = 0; f < 2; ++f) {
    const hid_t ds = H5Dopen2(file, kFields[f].c_str(), H5P_DEFAULT);
    ASSERT_GE(ds, 0);
    std::vector<hsize_t> max;
    EXPECT_EQ(dims_of(ds, &max), (std::vector<hsize_t>{kRecords, kNz, kNy, kNx}));
    EXPECT_EQ(max, (std::vector<hsize_t>{H5S_UNLIMITED, kNz, kNy, kNx}));
    EXPECT_EQ(chunk_of(ds), (std::vector<hsize_t>{1, kNz, kNy, kNx}));
    for (unsigned d = 0; d < 4; ++d) EXPECT_GT(H5DSis_attached(ds, scales[d], d), 0) << kFields[f] << " dim " << d;
    EXPECT_EQ(string_attr(ds, "units"), units[f]);
    EXPECT_EQ(string_attr(ds, "long_name"), kFields[f]);
    std::vector<double> expected;
    for (int r = 0; r < kRecords; ++r) {
      const auto rec = sample_record(f, r);
      expected.insert(expected.end(), rec.begin(), rec.end());
    }
    EXPECT_EQ(read_all(ds), expected);
    H5Dclose(ds);
  }
  for (hid_t ds : scales) H5Dclose(ds);
  H5Fclose(file);
}

TEST_F(FieldWriterTest, RefusesExistingFileWithoutTouchingIt) {
  std::ofstream(h5()) << "precious";
  try {
    make_writer();
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(h5().string()), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_text(h5()), "precious");
  EXPECT_FALSE(fs::exists(xmf()));
}

TEST_F(FieldWriterTest, RefusesExistingSidecar) {
  std::ofstream(xmf()) << "precious";
  EXPECT_THROW(make_writer(), std::runtime_error);
  EXPECT_EQ(read_text(xmf()), "precious");
  EXPECT_FALSE(fs::exists(h5()));
}

TEST_F(FieldWriterTest, SidecarIsWellFormedAndNamesEveryRecord) {
  auto w = make_writer();
  for (int r = 0; r <= kRecords; ++r) {
    const std::string text = read_text(xmf());
    EXPECT_EQ(xml_problem(text), "") << "after " << r << " records:\n" << text;
    EXPECT_EQ(count_of(text, "CollectionType=\"Temporal\""), 1u);
    EXPECT_EQ(count_of(text, "<Time "), static_cast<size_t>(r));
    for (int q = 0; q < r; ++q) {
      EXPECT_EQ(count_of(text, "<Grid Name=\"record " + std::to_string(q) + "\""), 1u);
      std::ostringstream time;
      time << "<Time Value=\"" << sample_time(q) << "\"/>";
      EXPECT_EQ(count_of(text, time.str()), 1u) << time.str();
    }
    // Every field of every record points into the HDF5 file, by relative name, through a
    // slab declared with the mesh's shape (ParaView's XDMF Reader rejects 1 x nz x ny x nx).
    for (const auto& f : kFields) EXPECT_EQ(count_of(text, ">out.h5:/" + f + "<"), static_cast<size_t>(r));
    EXPECT_EQ(count_of(text, "ItemType=\"HyperSlab\" Dimensions=\"3 4 5\""), kFields.size() * r);
    if (r < kRecords) append_sample_record(*w, r);
  }
  EXPECT_FALSE(fs::exists(xmf().string() + ".tmp"));
}

TEST_F(FieldWriterTest, RejectsBadAppends) {
  auto w = make_writer();
  const auto a = sample_record(0, 0);
  EXPECT_THROW(w->append(0.0, {a.data()}), std::invalid_argument);           // one field short
  EXPECT_THROW(w->append(0.0, {a.data(), nullptr}), std::invalid_argument);  // null data
  append_sample_record(*w, 1);
  EXPECT_THROW(w->append(sample_time(1), {a.data(), a.data()}), std::invalid_argument);  // time not after
  EXPECT_EQ(w->records(), 1);
}

TEST_F(FieldWriterTest, RejectsBadArgumentsBeforeCreatingAnything) {
  GridAxes uneven = sample_axes();
  uneven.z = {0.0, 1.0, 3.0};
  EXPECT_THROW(FieldWriter(h5().string(), uneven, kFields, {}), std::invalid_argument);
  EXPECT_THROW(FieldWriter(h5().string(), sample_axes(), {"x"}, {}), std::invalid_argument);
  EXPECT_THROW(FieldWriter(h5().string(), sample_axes(), {"u", "u"}, {}), std::invalid_argument);
  EXPECT_THROW(FieldWriter(h5().string(), sample_axes(), {"u"}, {{"Conventions", "mine"}}), std::invalid_argument);
  EXPECT_THROW(FieldWriter(h5().string(), sample_axes(), {"u"}, {}, {{"v", "K"}}), std::invalid_argument);
  EXPECT_FALSE(fs::exists(h5()));
  EXPECT_FALSE(fs::exists(xmf()));
}

TEST_F(FieldWriterTest, HDF5FailureNamesCallAndPath) {
  const std::string path = (dir_ / "no_such_dir" / "out.h5").string();
  try {
    FieldWriter(path, sample_axes(), kFields, {});
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("H5Fcreate"), std::string::npos) << msg;
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
  }
}

TEST_F(FieldWriterTest, LargeRecordsAreSplitIntoChunksOfAtMost4MiB) {
  GridAxes big;
  for (int i = 0; i < 200; ++i) big.x.push_back(i), big.y.push_back(i);
  for (int k = 0; k < 30; ++k) big.z.push_back(k);
  {
    FieldWriter w(h5().string(), big, {"u"}, {});
    const std::vector<double> u(200 * 200 * 30, 1.5);
    w.append(0.0, {u.data()});
  }
  const hid_t file = H5Fopen(h5().c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t ds = H5Dopen2(file, "u", H5P_DEFAULT);
  const auto chunk = chunk_of(ds);
  EXPECT_EQ(chunk[0], 1u);
  EXPECT_LE(chunk[1] * chunk[2] * chunk[3] * sizeof(double), 4u << 20);
  EXPECT_EQ(chunk[3], 200u);  // split along z first: whole x-y planes stay together
  for (double v : read_all(ds)) ASSERT_EQ(v, 1.5);
  H5Dclose(ds);
  H5Fclose(file);
}

}  // namespace
