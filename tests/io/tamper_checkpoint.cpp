// Damages a checkpoint the way a hostile tester would, for the restart tests:
//   tamper_checkpoint FILE step N        sets the root attribute `step` to N
//   tamper_checkpoint FILE flip DATASET  flips one bit of one byte inside DATASET's stored data
//   tamper_checkpoint FILE time VALUE    sets the root attribute `time` (e.g. nan)
#include <hdf5.h>
#include <hdf5_hl.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: tamper_checkpoint FILE step N | flip DATASET | time VALUE\n");
    return 2;
  }
  const std::string file = argv[1], what = argv[2], arg = argv[3];
  if (what == "step" || what == "time") {
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0) return 1;
    herr_t r;
    if (what == "step") {
      const long long v = std::atoll(arg.c_str());
      r = H5LTset_attribute_long_long(f, "/", "step", &v, 1);
    } else {
      const double v = std::strtod(arg.c_str(), nullptr);
      r = H5LTset_attribute_double(f, "/", "time", &v, 1);
    }
    return H5Fclose(f) < 0 || r < 0 ? 1 : 0;
  }
  if (what == "flip") {
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return 1;
    const hid_t d = H5Dopen2(f, arg.c_str(), H5P_DEFAULT);
    const haddr_t offset = d < 0 ? HADDR_UNDEF : H5Dget_offset(d);  // contiguous layout
    if (d >= 0) H5Dclose(d);
    H5Fclose(f);
    if (offset == HADDR_UNDEF) return 1;
    std::FILE* raw = std::fopen(file.c_str(), "r+b");
    if (!raw) return 1;
    const long at = long(offset) + 17;  // a byte inside the first values
    std::fseek(raw, at, SEEK_SET);
    const int c = std::fgetc(raw);
    std::fseek(raw, at, SEEK_SET);
    std::fputc(c ^ 0x10, raw);
    return std::fclose(raw) == 0 ? 0 : 1;
  }
  return 2;
}
