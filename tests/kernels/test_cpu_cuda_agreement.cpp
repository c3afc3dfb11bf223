// Every kernel's CUDA implementation against its CPU implementation on the same random inputs.
// Both are compiled without FMA contraction, so they must agree bit for bit. Skipped (with a
// message) where there is no CUDA build or no device: run this on the GPU machine.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "codelets/halo_pack/halo_pack_plan.hpp"
#include "codelets/halo_unpack/halo_unpack_plan.hpp"
#include "codelets/mpdata/mpdata_pipeline.hpp"
#include "codelets/scale_courant/scale_courant_kernel.hpp"
#include "codelets/snapshot_copy/snapshot_copy_kernel.hpp"
#include "codelets/tile_moments/tile_moments_kernel.hpp"
#include "tile_fixture.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>

#include "device_array.hpp"
#endif

using namespace tdc;

namespace {

#if !defined(TASKDYCORE_HAVE_CUDA)
TEST(CpuCudaAgreement, AllKernels) { GTEST_SKIP() << "built without CUDA (no nvcc): run on a CUDA build"; }
#else

using tdc_test::DeviceArray;
using tdc_test::have_device;
#define REQUIRE_DEVICE() \
  if (!have_device()) GTEST_SKIP() << "no CUDA device on this machine: run the agreement tests on the GPU machine"

void check(cudaError_t e) { ASSERT_EQ(e, cudaSuccess) << cudaGetErrorString(e); }

void expect_bitwise(const std::vector<double>& cpu, const std::vector<double>& gpu, const char* what) {
  ASSERT_EQ(cpu.size(), gpu.size());
  std::size_t differ = 0, first = cpu.size();
  for (std::size_t n = 0; n < cpu.size(); ++n)
    if (std::memcmp(&cpu[n], &gpu[n], sizeof(double)) != 0) {
      if (!differ) first = n;
      ++differ;
    }
  EXPECT_EQ(differ, 0u) << what << ": " << differ << " values differ, first at " << first << " (cpu " << cpu[first]
                        << ", gpu " << gpu[first] << ")";
}

const double kPoison = std::numeric_limits<double>::quiet_NaN();

mpdata::Options options(int iord, bool fct, bool iga, bool rigid) {
  mpdata::Options o;
  o.iord = iord;
  o.fct = fct;
  o.iga = iga;
  o.zb = rigid ? ZBoundary::Rigid : ZBoundary::Periodic;
  return o;
}

TEST(CpuCudaAgreement, StageKernels) {
  REQUIRE_DEVICE();
  for (bool rigid : {false, true})
    for (bool iga : {false, true}) {
      const mpdata::Options o = options(2, true, iga, rigid);
      const auto r = tdc_test::random_case(37, 29, 9, 3, rigid, iga, 7u + rigid + 2 * iga);
      const mpdata::Cells s{r.L, o.zb};
      const Box box{-1, 38, -2, 30};
      DeviceArray psi(r.t_psi), c1(r.t_c1), c2(r.t_c2), c3(r.t_c3), g(r.t_g);
      // upwind
      std::vector<double> up_cpu(r.L.size(), kPoison);
      mpdata::upwind_cpu(s, box, r.t_psi.data(), r.t_c1.data(), r.t_c2.data(), r.t_c3.data(), r.t_g.data(),
                         up_cpu.data(), false);
      DeviceArray up_gpu(r.L.size(), kPoison);
      mpdata::upwind_cuda(s, box, psi.p, c1.p, c2.p, c3.p, g.p, up_gpu.p, false, 0);
      expect_bitwise(up_cpu, up_gpu.host(), "upwind");
      // antidiffusive velocities
      std::vector<double> v1(r.L.size(), kPoison), v2 = v1, v3 = v1;
      mpdata::antidiffusive_cpu(s, o, box, r.t_psi.data(), r.t_c1.data(), r.t_c2.data(), r.t_c3.data(), r.t_g.data(),
                                v1.data(), v2.data(), v3.data());
      DeviceArray w1(r.L.size(), kPoison), w2(r.L.size(), kPoison), w3(r.L.size(), kPoison);
      mpdata::antidiffusive_cuda(s, o, box, psi.p, c1.p, c2.p, c3.p, g.p, w1.p, w2.p, w3.p, 0);
      expect_bitwise(v1, w1.host(), "antidiffusive x");
      expect_bitwise(v2, w2.host(), "antidiffusive y");
      expect_bitwise(v3, w3.host(), "antidiffusive z");
      // limiter factors (psi0 = psi, psi1 = upwind result as in a step)
      const Box inner{0, 37, 0, 29};
      std::vector<double> bu(r.L.size(), kPoison), bd = bu;
      mpdata::fct_beta_cpu(s, o, inner, r.t_psi.data(), up_cpu.data(), up_cpu.data(), v1.data(), v2.data(), v3.data(),
                           r.t_g.data(), bu.data(), bd.data());
      DeviceArray gu(r.L.size(), kPoison), gd(r.L.size(), kPoison);
      mpdata::fct_beta_cuda(s, o, inner, psi.p, up_gpu.p, up_gpu.p, w1.p, w2.p, w3.p, g.p, gu.p, gd.p, 0);
      expect_bitwise(bu, gu.host(), "fct beta up");
      expect_bitwise(bd, gd.host(), "fct beta down");
      // limit in place
      const Box lim{1, 36, 1, 28};
      mpdata::fct_limit_cpu(s, lim, bu.data(), bd.data(), v1.data(), v2.data(), v3.data());
      mpdata::fct_limit_cuda(s, lim, gu.p, gd.p, w1.p, w2.p, w3.p, 0);
      expect_bitwise(v1, w1.host(), "limited x");
      expect_bitwise(v2, w2.host(), "limited y");
      expect_bitwise(v3, w3.host(), "limited z");
    }
}

// Values that leave the CUDA kernels' branch-free division (codelets/common/branch_free_divide.cuh)
// off its fast path: zeros (handled on it), subnormal and tiny psi, huge psi, zero Courant numbers.
// Their cells are recomputed with a / b by the fix-up kernel: from its list on a small box, and over
// the whole box once more cells left the fast path than the list holds (the large case).
TEST(CpuCudaAgreement, StageKernelsOffTheFastDivision) {
  REQUIRE_DEVICE();
  for (int size : {24, 80})
    for (bool iga : {false, true}) {
      const mpdata::Options o = options(2, true, iga, false);
      auto r = tdc_test::random_case(size, size, 6, 3, false, iga, 11u + size + iga);
      std::mt19937 g(5u + size);
      const double awkward[] = {0.0, -0.0, 4.9e-324, -3.3e-310, 1e-300, 2e-308, 1e300, -7e299};
      for (double& p : r.t_psi)
        if (g() % 3 == 0) p = awkward[g() % 8];
      for (auto* c : {&r.t_c1, &r.t_c2, &r.t_c3})
        for (double& v : *c)
          if (g() % 5 == 0) v = 0.0;
      const mpdata::Cells s{r.L, o.zb};
      const Box box{0, size, 0, size};
      DeviceArray psi(r.t_psi), c1(r.t_c1), c2(r.t_c2), c3(r.t_c3), gg(r.t_g);
      std::vector<double> v1(r.L.size(), kPoison), v2 = v1, v3 = v1;
      mpdata::antidiffusive_cpu(s, o, box, r.t_psi.data(), r.t_c1.data(), r.t_c2.data(), r.t_c3.data(), r.t_g.data(),
                                v1.data(), v2.data(), v3.data());
      DeviceArray w1(r.L.size(), kPoison), w2(r.L.size(), kPoison), w3(r.L.size(), kPoison);
      mpdata::antidiffusive_cuda(s, o, box, psi.p, c1.p, c2.p, c3.p, gg.p, w1.p, w2.p, w3.p, 0);
      const std::string what = std::to_string(size) + (iga ? " iga" : "");
      expect_bitwise(v1, w1.host(), ("antidiffusive x " + what).c_str());
      expect_bitwise(v2, w2.host(), ("antidiffusive y " + what).c_str());
      expect_bitwise(v3, w3.host(), ("antidiffusive z " + what).c_str());
      std::vector<double> bu(r.L.size(), kPoison), bd = bu;
      mpdata::fct_beta_cpu(s, o, box, r.t_psi.data(), r.t_psi.data(), r.t_psi.data(), r.t_c1.data(), r.t_c2.data(),
                           r.t_c3.data(), r.t_g.data(), bu.data(), bd.data());
      DeviceArray gu(r.L.size(), kPoison), gd(r.L.size(), kPoison);
      mpdata::fct_beta_cuda(s, o, box, psi.p, psi.p, psi.p, c1.p, c2.p, c3.p, gg.p, gu.p, gd.p, 0);
      expect_bitwise(bu, gu.host(), ("fct beta up " + what).c_str());
      expect_bitwise(bd, gd.host(), ("fct beta down " + what).c_str());
    }
}

TEST(CpuCudaAgreement, WholeStepEveryOption) {
  REQUIRE_DEVICE();
  for (int iord : {1, 2, 3})
    for (bool fct : {false, true})
      for (bool iga : {false, true})
        for (bool rigid : {false, true}) {
          const mpdata::Options o = options(iord, fct, iga, rigid);
          const auto r = tdc_test::random_case(45, 19, 7, mpdata::halo_needed(o), rigid, iga,
                                               100u + iord * 8 + fct * 4 + iga * 2 + rigid);
          const std::size_t arrays = std::max(1, mpdata::scratch_plan(o).arrays());
          std::vector<double> scratch(arrays * r.L.size(), kPoison), out(r.L.size(), kPoison);
          const mpdata::Cells s{r.L, o.zb};
          const Box all{0, 45, 0, 19};
          mpdata::advance_region(mpdata::CpuStages{}, s, o, all,
                                 {r.t_psi.data(), r.t_c1.data(), r.t_c2.data(), r.t_c3.data(), r.t_g.data()},
                                 mpdata::carve_scratch(o, r.L, scratch.data()), out.data());
          const std::string what =
              "step iord " + std::to_string(iord) + (fct ? " fct" : "") + (iga ? " iga" : "") + (rigid ? " rigid" : "");
          for (bool fused : {true, false}) {  // the fused 2.5D kernel (iord 2) and the staged kernels
            DeviceArray psi(r.t_psi), c1(r.t_c1), c2(r.t_c2), c3(r.t_c3), g(r.t_g),
                dscratch(arrays * r.L.size(), kPoison), dout(r.L.size(), kPoison);
            mpdata::CudaStages cuda{0};
            cuda.use_fused = fused;
            mpdata::advance_region(cuda, s, o, all, {psi.p, c1.p, c2.p, c3.p, g.p},
                                   mpdata::carve_scratch(o, r.L, dscratch.p), dout.p);
            expect_bitwise(out, dout.host(), (what + (fused ? " (fused)" : " (staged)")).c_str());
          }
          // G = 1: the CUDA kernels that do not read G against the CPU's reading an array of ones.
          std::vector<double> ones(r.L.size(), 1.0), out_ones(r.L.size(), kPoison);
          mpdata::CpuStages cpu;
          cpu.use_fused = false;
          mpdata::advance_region(cpu, s, o, all,
                                 {r.t_psi.data(), r.t_c1.data(), r.t_c2.data(), r.t_c3.data(), ones.data()},
                                 mpdata::carve_scratch(o, r.L, scratch.data()), out_ones.data());
          mpdata::Options unit = o;
          unit.unit_density = true;
          DeviceArray psi(r.t_psi), c1(r.t_c1), c2(r.t_c2), c3(r.t_c3), dscratch(arrays * r.L.size(), kPoison),
              dout(r.L.size(), kPoison);
          mpdata::CudaStages cuda{0};
          cuda.use_fused = false;
          mpdata::advance_region(cuda, s, unit, all, {psi.p, c1.p, c2.p, c3.p, nullptr},
                                 mpdata::carve_scratch(o, r.L, dscratch.p), dout.p);
          expect_bitwise(out_ones, dout.host(), (what + " (G = 1 kernels)").c_str());
        }
}

TEST(CpuCudaAgreement, HaloPackAndUnpack) {
  REQUIRE_DEVICE();
  const TileLayout L{17, 12, 5, 3};
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> field(L.size());
  for (double& x : field) x = u(rng);
  std::vector<std::vector<double>> strips(4);
  double* s[4];
  DeviceArray dfield(field);
  std::vector<DeviceArray*> dstrips;
  double* ds[4];
  for (int side = 0; side < 4; ++side) {
    strips[side].assign(strip_size(L, side), kPoison);
    s[side] = strips[side].data();
    dstrips.push_back(new DeviceArray(strip_size(L, side), kPoison));
    ds[side] = dstrips.back()->p;
  }
  strided_copies_cpu(halo_pack_plan(L, field.data(), s));
  strided_copies_cuda(halo_pack_plan(L, dfield.p, ds), 0);
  for (int side = 0; side < 4; ++side) expect_bitwise(strips[side], dstrips[side]->host(), "pack");
  // unpack with this tile's strips standing in for every neighbour (one periodic tile)
  const double* own[4] = {s[0], s[1], s[2], s[3]};
  const double* down[4] = {ds[0], ds[1], ds[2], ds[3]};
  const double* nb[kNeighbourSlots];
  const double* dnb[kNeighbourSlots];
  for (int q = 0; q < kNeighbourSlots; ++q) {
    nb[q] = s[neighbour_strip_side(q)];
    dnb[q] = ds[neighbour_strip_side(q)];
  }
  std::vector<double> target(L.size(), kPoison);
  DeviceArray dtarget(target);
  strided_copies_cpu(halo_unpack_plan(L, target.data(), own, nb));
  strided_copies_cuda(halo_unpack_plan(L, dtarget.p, down, dnb), 0);
  expect_bitwise(target, dtarget.host(), "unpack");
  // the ring alone, and two fields' copies in one launch
  std::vector<double> ring = field, ring2 = field;
  DeviceArray dring(field), dring2(field);
  std::vector<StridedCopy> cpu_copies, cuda_copies;
  halo_unpack_plan(L, ring.data(), nullptr, nb).append_to(cpu_copies);
  halo_unpack_plan(L, ring2.data(), nullptr, nb).append_to(cpu_copies);
  halo_unpack_plan(L, dring.p, nullptr, dnb).append_to(cuda_copies);
  halo_unpack_plan(L, dring2.p, nullptr, dnb).append_to(cuda_copies);
  strided_copies_cpu(cpu_copies);
  strided_copies_cuda(cuda_copies, 0);
  expect_bitwise(ring, dring.host(), "unpack ring");
  expect_bitwise(ring2, dring2.host(), "unpack ring, second field");
  // three fields with their own strips: 36 copies, more than one launch holds (kMaxCopies)
  std::vector<std::vector<double>> many(3, std::vector<double>(L.size(), kPoison));
  std::vector<DeviceArray*> dmany;
  std::vector<StridedCopy> cpu_many, cuda_many;
  for (auto& m : many) {
    dmany.push_back(new DeviceArray(m));
    halo_unpack_plan(L, m.data(), own, nb).append_to(cpu_many);
    halo_unpack_plan(L, dmany.back()->p, down, dnb).append_to(cuda_many);
  }
  ASSERT_GT(cuda_many.size(), std::size_t(kMaxCopies));
  strided_copies_cpu(cpu_many);
  strided_copies_cuda(cuda_many, 0);
  for (std::size_t m = 0; m < many.size(); ++m) expect_bitwise(many[m], dmany[m]->host(), "unpack, one of three fields");
  for (auto* d : dmany) delete d;
  for (auto* d : dstrips) delete d;
}

TEST(CpuCudaAgreement, TileMomentsAndScale) {
  REQUIRE_DEVICE();
  const auto r = tdc_test::random_case(45, 31, 6, 3, false, true, 77u);
  double cpu[kMomentsDoubles];
  tile_moments_cpu(r.L, r.t_psi.data(), r.t_g.data(), cpu);
  DeviceArray psi(r.t_psi), g(r.t_g), partials(std::size_t(moment_groups(r.L)) * kMomentsDoubles, kPoison),
      out(kMomentsDoubles, kPoison);
  tile_moments_cuda(r.L, psi.p, g.p, partials.p, out.p, 0);
  expect_bitwise(std::vector<double>(cpu, cpu + kMomentsDoubles), out.host(), "tile moments");
  std::vector<double> scaled(r.L.size(), kPoison);
  scale_cpu(r.L.size(), 0.73, r.t_c1.data(), scaled.data());
  DeviceArray c1(r.t_c1), dscaled(r.L.size(), kPoison);
  scale_cuda(r.L.size(), 0.73, c1.p, dscaled.p, 0);
  expect_bitwise(scaled, dscaled.host(), "scale courant");
  std::vector<double> copied(r.L.size(), kPoison);
  snapshot_copy_cpu(r.L.size(), r.t_psi.data(), copied.data());
  DeviceArray dcopied(r.L.size(), kPoison);
  snapshot_copy_cuda(r.L.size(), psi.p, dcopied.p, 0);
  expect_bitwise(copied, dcopied.host(), "snapshot copy");
}
#endif

}  // namespace
