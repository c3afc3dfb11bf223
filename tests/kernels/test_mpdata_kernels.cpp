// The MPDATA pipeline (CPU kernels) against the plain reference implementation, over every option.
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <cstring>
#include <limits>

#include "codelets/mpdata/mpdata_pipeline.hpp"
#include "tile_fixture.hpp"

using namespace tdc;

namespace {

struct Variant {
  int iord;
  bool fct, iga, rigid;
};
std::string name_of(const Variant& v) {
  return "iord" + std::to_string(v.iord) + (v.fct ? "_fct" : "") + (v.iga ? "_iga" : "") +
         (v.rigid ? "_rigid" : "_periodic");
}

mpdata::Options options_of(const Variant& v) {
  mpdata::Options o;
  o.iord = v.iord;
  o.fct = v.fct;
  o.iga = v.iga;
  o.zb = v.rigid ? ZBoundary::Rigid : ZBoundary::Periodic;
  return o;
}

class PipelineVsReference : public ::testing::TestWithParam<Variant> {};

std::vector<double> run_pipeline(const tdc_test::RandomCase& r, const mpdata::Options& o,
                                 const std::vector<Box>& regions) {
  std::vector<double> scratch(std::max(1, mpdata::scratch_plan(o).arrays()) * r.L.size(),
                              std::numeric_limits<double>::quiet_NaN());
  const mpdata::Scratch t = mpdata::carve_scratch(o, r.L, scratch.data());
  std::vector<double> out(r.L.size(), std::numeric_limits<double>::quiet_NaN());
  const mpdata::StepInputs in{r.t_psi.data(), r.t_c1.data(), r.t_c2.data(), r.t_c3.data(), r.t_g.data()};
  for (const Box& b : regions)
    mpdata::advance_region(mpdata::CpuStages{}, mpdata::Cells{r.L, o.zb}, o, b, in, t, out.data());
  return out;
}

TEST_P(PipelineVsReference, AgreesToRoundOff) {
  const Variant v = GetParam();
  const mpdata::Options o = options_of(v);
  const int nx = 13, ny = 11, nz = 5;
  const auto r = tdc_test::random_case(nx, ny, nz, mpdata::halo_needed(o), v.rigid, v.iga, 1234u + v.iord);
  const auto out = run_pipeline(r, o, {Box{0, nx, 0, ny}});
  const ref::Field expect = ref::mpdata_step(r.g, r.psi, r.c, r.G, v.iord, v.fct, v.iga);
  double worst = 0, scale = 0;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const double e = expect[r.g.n(i, j, k)], a = out[r.L.at(i, j, k)];
        ASSERT_TRUE(std::isfinite(a)) << "cell " << i << "," << j << "," << k << " not written";
        worst = std::max(worst, std::fabs(a - e));
        scale = std::max(scale, std::fabs(e));
      }
  EXPECT_LT(worst, 1e-13 * scale) << name_of(v);
  // The step must change the field (a test that cannot fail proves nothing).
  double change = 0;
  for (int k = 0; k < nz; ++k) change = std::max(change, std::fabs(out[r.L.at(3, 3, k)] - r.t_psi[r.L.at(3, 3, k)]));
  EXPECT_GT(change, 1e-6);
}

TEST_P(PipelineVsReference, BorderPlusBodyIsBitwiseTheWholeTile) {
  const Variant v = GetParam();
  const mpdata::Options o = options_of(v);
  const int nx = 16, ny = 14, nz = 4;
  const auto r = tdc_test::random_case(nx, ny, nz, mpdata::halo_needed(o), v.rigid, v.iga, 99u);
  const auto whole = run_pipeline(r, o, {Box{0, nx, 0, ny}});
  Box bands[4];
  const int n = mpdata::border_regions(r.L, bands);
  std::vector<Box> regions(bands, bands + n);
  regions.push_back(mpdata::body_region(r.L));
  const auto split = run_pipeline(r, o, regions);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        ASSERT_EQ(0, std::memcmp(&whole[r.L.at(i, j, k)], &split[r.L.at(i, j, k)], sizeof(double)))
            << "cell " << i << "," << j << "," << k;
}

INSTANTIATE_TEST_SUITE_P(Options, PipelineVsReference,
                         ::testing::Values(Variant{1, false, false, false}, Variant{2, false, false, false},
                                           Variant{2, true, false, false}, Variant{2, true, false, true},
                                           Variant{2, false, true, false}, Variant{2, true, true, true},
                                           Variant{3, true, false, false}, Variant{3, false, true, true},
                                           Variant{3, true, true, false}),
                         [](const auto& info) { return name_of(info.param); });

// G = 1 (Options::unit_density): the kernels that neither read G nor divide by it give the bits of
// the general kernels reading an array of ones, for every option; and they do not read the array.
TEST(UnitDensity, BitwiseTheKernelsReadingOnes) {
  for (const Variant v : {Variant{1, false, false, false}, Variant{2, false, false, false},
                          Variant{2, true, false, true}, Variant{2, true, true, false}, Variant{2, false, true, true},
                          Variant{3, true, false, false}, Variant{3, true, true, true}}) {
    mpdata::Options o = options_of(v);
    auto r = tdc_test::random_case(21, 17, 5, mpdata::halo_needed(o), v.rigid, v.iga, 700u + v.iord);
    std::fill(r.t_g.begin(), r.t_g.end(), 1.0);
    const mpdata::Cells s{r.L, o.zb};
    std::vector<double> scratch(std::max(1, mpdata::scratch_plan(o).arrays()) * r.L.size());
    const mpdata::Scratch t = mpdata::carve_scratch(o, r.L, scratch.data());
    mpdata::CpuStages staged;
    staged.use_fused = false;
    staged.march = false;
    const Box all{0, 21, 0, 17};
    std::vector<double> ones(r.L.size(), std::numeric_limits<double>::quiet_NaN()), unit = ones;
    mpdata::advance_region(staged, s, o, all,
                           {r.t_psi.data(), r.t_c1.data(), r.t_c2.data(), r.t_c3.data(), r.t_g.data()}, t, ones.data());
    o.unit_density = true;
    const std::vector<double> poison(r.L.size(), std::numeric_limits<double>::quiet_NaN());  // G that must not be read
    mpdata::advance_region(staged, s, o, all,
                           {r.t_psi.data(), r.t_c1.data(), r.t_c2.data(), r.t_c3.data(), poison.data()}, t,
                           unit.data());
    for (int k = 0; k < 5; ++k)
      for (int j = 0; j < 17; ++j)
        for (int i = 0; i < 21; ++i) {
          ASSERT_TRUE(std::isfinite(unit[r.L.at(i, j, k)])) << name_of(v) << " cell " << i << "," << j << "," << k;
          ASSERT_EQ(0, std::memcmp(&ones[r.L.at(i, j, k)], &unit[r.L.at(i, j, k)], sizeof(double)))
              << name_of(v) << " cell " << i << "," << j << "," << k;
        }
  }
}

TEST(HaloNeeded, GrowsWithPassesAndLimiter) {
  mpdata::Options o;
  o.iord = 1;
  o.fct = true;
  EXPECT_EQ(mpdata::halo_needed(o), 1);
  o.iord = 2;
  EXPECT_EQ(mpdata::halo_needed(o), 3);
  o.fct = false;
  EXPECT_EQ(mpdata::halo_needed(o), 2);
  o.iord = 3;
  o.fct = true;
  EXPECT_EQ(mpdata::halo_needed(o), 5);
}

}  // namespace

namespace {

// The fused step (2.5D rings) against the staged kernels, bit for bit, on awkward shapes: boxes
// that leave partial blocks, boxes reaching into the ghost ring, one to three levels.
TEST(FusedStep, BitwiseTheStagedKernels) {
  for (bool fct : {false, true})
    for (bool iga : {false, true})
      for (bool rigid : {false, true})
        for (int nz : {1, 2, 3, 7}) {
          const mpdata::Options o = options_of(Variant{2, fct, iga, rigid});
          const auto r = tdc_test::random_case(45, 19, nz, 3, rigid, iga, 500u + nz + 8 * fct + 16 * iga + 32 * rigid);
          const mpdata::Cells s{r.L, o.zb};
          const mpdata::StepInputs in{r.t_psi.data(), r.t_c1.data(), r.t_c2.data(), r.t_c3.data(), r.t_g.data()};
          std::vector<double> scratch(mpdata::scratch_plan(o).arrays() * r.L.size(),
                                      std::numeric_limits<double>::quiet_NaN());
          const mpdata::Scratch t = mpdata::carve_scratch(o, r.L, scratch.data());
          for (Box b : {Box{0, 45, 0, 19}, Box{3, 42, 3, 16}, Box{0, 45, 0, 3}, Box{-0, 3, 3, 16}}) {
            std::vector<double> staged(r.L.size(), std::numeric_limits<double>::quiet_NaN()), fused = staged;
            mpdata::CpuStages plain, blocked;
            plain.use_fused = false;
            plain.march = false;
            blocked.use_fused = true;
            mpdata::advance_region(plain, s, o, b, in, t, staged.data());
            mpdata::advance_region(blocked, s, o, b, in, t, fused.data());
            ASSERT_EQ(0, std::memcmp(staged.data(), fused.data(), staged.size() * sizeof(double)))
                << "fct " << fct << " iga " << iga << " rigid " << rigid << " nz " << nz << " box " << b.i0 << ".."
                << b.i1 << " x " << b.j0 << ".." << b.j1;
          }
        }
}

}  // namespace

namespace {

// The level march (the CPU's default for iord = 2) against the staged kernels, bit for bit: every
// option, G as an array and G = 1, boxes that reach into the ghost ring or are thinner than the
// stencil, one to eight levels (the wrap slots overlap the ring below seven).
TEST(MarchStep, BitwiseTheStagedKernels) {
  for (bool fct : {false, true})
    for (bool iga : {false, true})
      for (bool rigid : {false, true})
        for (bool unit : {false, true})
          for (int nz : {1, 2, 3, 5, 7, 8, 13}) {
            mpdata::Options o = options_of(Variant{2, fct, iga, rigid});
            o.unit_density = unit;
            auto r = tdc_test::random_case(37, 19, nz, 3, rigid, iga, 900u + nz + 16 * fct + 32 * iga + 64 * rigid);
            if (unit) std::fill(r.t_g.begin(), r.t_g.end(), 1.0);
            const mpdata::Cells s{r.L, o.zb};
            const mpdata::StepInputs in{r.t_psi.data(), r.t_c1.data(), r.t_c2.data(), r.t_c3.data(), r.t_g.data()};
            std::vector<double> scratch(mpdata::scratch_plan(o).arrays() * r.L.size(),
                                        std::numeric_limits<double>::quiet_NaN());
            const mpdata::Scratch t = mpdata::carve_scratch(o, r.L, scratch.data());
            for (Box b : {Box{0, 37, 0, 19}, Box{3, 34, 3, 16}, Box{0, 37, 0, 3}, Box{0, 3, 3, 16}, Box{5, 6, 7, 8}}) {
              std::vector<double> staged(r.L.size(), std::numeric_limits<double>::quiet_NaN()), marched = staged;
              mpdata::CpuStages plain, march;
              plain.march = false;
              mpdata::advance_region(plain, s, o, b, in, t, staged.data());
              mpdata::advance_region(march, s, o, b, in, t, marched.data());
              ASSERT_EQ(0, std::memcmp(staged.data(), marched.data(), staged.size() * sizeof(double)))
                  << "fct " << fct << " iga " << iga << " rigid " << rigid << " unit " << unit << " nz " << nz
                  << " box " << b.i0 << ".." << b.i1 << " x " << b.j0 << ".." << b.j1 << " (" << mpdata::march_isa()
                  << ")";
            }
          }
}

}  // namespace
