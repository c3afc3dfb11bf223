// Writes a small sample output file for the reader checks in ctest:
//   write_sample OUT.h5   then   check_readers.py OUT.h5 5 4 3 3
// Grid 5 x 4 x 3 (nx, ny, nz), 3 records, fields "theta" and "w" with value
//   1e4*f + 1e3*record + 100*k + 10*j + i   (f: field index; k, j, i: z, y, x index).
// OUT.h5 and OUT.xmf are deleted first, so that the test can be rerun.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <vector>

#include "../../src/io/field_writer.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT.h5\n", argv[0]);
    return 2;
  }
  const std::filesystem::path out = argv[1];
  std::filesystem::remove(out);
  std::filesystem::remove(std::filesystem::path(out).replace_extension(".xmf"));

  const int nx = 5, ny = 4, nz = 3, nrec = 3, nfield = 2;
  tdc::io::GridAxes axes;
  for (int i = 0; i < nx; ++i) axes.x.push_back(50.0 + 100.0 * i);
  for (int j = 0; j < ny; ++j) axes.y.push_back(100.0 + 200.0 * j);
  for (int k = 0; k < nz; ++k) axes.z.push_back(25.0 + 50.0 * k);

  try {
    tdc::io::FieldWriter writer(out.string(), axes, {"theta", "w"},
                                {{"title", "write_sample test output"}, {"case", "sample"}},
                                {{"theta", "K"}, {"w", "m s-1"}});
    std::vector<std::vector<double>> values(nfield, std::vector<double>(nx * ny * nz));
    for (int r = 0; r < nrec; ++r) {
      for (int f = 0; f < nfield; ++f)
        for (int k = 0; k < nz; ++k)
          for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) values[f][(k * ny + j) * nx + i] = 1e4 * f + 1e3 * r + 100 * k + 10 * j + i;
      writer.append(60.0 * r, {values[0].data(), values[1].data()});
    }
    std::printf("wrote %s: nx=%d ny=%d nz=%d, %d records\n", out.c_str(), nx, ny, nz, writer.records());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "write_sample: %s\n", e.what());
    return 1;
  }
  return 0;
}
