// One MPDATA step (iord 2) over one tile on one CPU thread, without StarPU: the staged loops, the
// level march (the default) and the fused 32 × 8 block, alternating, timed by the thread's CPU clock
// (so that other work on a shared machine perturbs the figures less than wall time would).
// Usage: mpdata_cpu_kernels NX NY NZ [--fct on|off] [--iga on|off] [--density unit|array] [--reps N]
//                           [--rounds N]
// Prints ns per cell (median of the reps, and the least) per variant and round.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "codelets/mpdata/mpdata_pipeline.hpp"

using namespace tdc;

namespace {
double thread_seconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: %s NX NY NZ [--fct on|off] [--iga on|off] [--density unit|array] [--reps N] [--rounds N]\n",
                 argv[0]);
    return 2;
  }
  const int nx = std::atoi(argv[1]), ny = std::atoi(argv[2]), nz = std::atoi(argv[3]);
  mpdata::Options o;
  o.iord = 2;
  o.unit_density = true;
  int reps = 20, rounds = 3;
  for (int a = 4; a + 1 < argc; a += 2) {
    const std::string k = argv[a], v = argv[a + 1];
    if (k == "--fct")
      o.fct = v == "on";
    else if (k == "--iga")
      o.iga = v == "on";
    else if (k == "--density")
      o.unit_density = v == "unit";
    else if (k == "--reps")
      reps = std::atoi(v.c_str());
    else if (k == "--rounds")
      rounds = std::atoi(v.c_str());
  }
  const TileLayout L{nx, ny, nz, mpdata::halo_needed(o)};
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(0.5, 1.5), c(-0.25, 0.25), gg(0.8, 1.2);
  std::vector<double> psi(L.size()), c1(L.size()), c2(L.size()), c3(L.size()), g(L.size()), out(L.size());
  for (std::size_t n = 0; n < L.size(); ++n) {
    psi[n] = o.iga ? u(rng) - 1.0 : u(rng);
    c1[n] = c(rng);
    c2[n] = c(rng);
    c3[n] = c(rng);
    g[n] = o.unit_density ? 1.0 : gg(rng);
  }
  std::vector<double> scratch(mpdata::scratch_plan(o).arrays() * L.size());
  const mpdata::Scratch t = mpdata::carve_scratch(o, L, scratch.data());
  const mpdata::Cells s{L, o.zb};
  const mpdata::StepInputs in{psi.data(), c1.data(), c2.data(), c3.data(), g.data()};
  const Box all{0, nx, 0, ny};
  const double cells = double(nx) * ny * nz;
  std::printf("tile %dx%dx%d, FCT %s, iga %s, G %s, march ISA %s, %d reps\n", nx, ny, nz, o.fct ? "on" : "off",
              o.iga ? "on" : "off", o.unit_density ? "unit" : "array", mpdata::march_isa(), reps);
  const char* names[3] = {"staged", "march", "fused"};
  std::vector<double> first;
  for (int round = 1; round <= rounds; ++round)
    for (int v = 0; v < 3; ++v) {
      mpdata::CpuStages k;
      k.march = v == 1;
      k.use_fused = v == 2;
      std::vector<double> ts;
      for (int r = 0; r < reps; ++r) {
        const double t0 = thread_seconds();
        mpdata::advance_region(k, s, o, all, in, t, out.data());
        ts.push_back(thread_seconds() - t0);
      }
      std::sort(ts.begin(), ts.end());
      // Same bits from every variant (checked here as well as in the tests).
      if (round == 1 && v == 0) first = out;
      const bool same = std::memcmp(first.data(), out.data(), out.size() * sizeof(double)) == 0;
      std::printf("round %d %-7s %7.2f ns/cell (least %6.2f)  %6.1f Mcell/s per core%s\n", round, names[v],
                  ts[ts.size() / 2] * 1e9 / cells, ts[0] * 1e9 / cells, cells / ts[ts.size() / 2] / 1e6,
                  same ? "" : "  DIFFERENT BITS");
    }
}
