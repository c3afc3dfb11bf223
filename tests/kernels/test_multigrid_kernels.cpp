// The multigrid kernels: restriction and prolongation are transposes of each other up to the factor
// 8 (which makes the V-cycle symmetric), both keep laplc's interleaved lattices apart, the Jacobi sweep
// is the residual update it claims to be, and every CUDA form equals its CPU form bit for bit
// (skipped without a device: run on the GPU machine).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "codelets/dot_partial/dot_partial_kernel.hpp"
#include "codelets/elliptic_apply/elliptic_apply_kernel.hpp"
#include "codelets/multigrid/multigrid_kernel.hpp"
#include "codelets/multigrid/multigrid_vcycle.hpp"
#include "codelets/solver_scalars/solver_state.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include "device_array.hpp"
#endif

#include "random_values.hpp"
using namespace tdc;

namespace {

const TileLayout kF{24, 16, 12, 2};  // fine tile: dimensions multiples of 4 (laplc stride 2)
const TileLayout kC{12, 8, 6, 3};    // its coarse tile, with a different halo on purpose
const ColumnCouplings kLaplc{0.7, 0.7, 0.5, 0.5, 2, 2, kWrapPeriodic};

std::vector<double> random_field(const TileLayout& L, unsigned seed) { return tdc_test::random_values(L.size(), seed); }

std::vector<double> laplc_coefficients(int nz) {
  std::vector<double> c(std::size_t(kLevelVectors) * nz, 0.0);
  for (int k = 0; k < nz; ++k) {
    c[kCb * nz + k] = c[kCc * nz + k] = 0.9 + 0.01 * k;
    c[kC0 * nz + k] = -2.0 * (0.7 + 0.5 + 0.9 + 0.01 * k);
    c[kD * nz + k] = -1.0;
  }
  finish_thomas_vectors(c.data(), nz, 1.0, 2);
  return c;
}

const std::vector<double> kRunning(state_doubles(4), 0.0);

TEST(MultigridKernels, IndexMapsKeepTheLatticesAndInvertEachOther) {
  for (int h : {1, 2, 4})
    for (int I = 0; I < 16; ++I)
      for (int b = 0; b < 2; ++b) {
        const int i = fine_of_coarse(I, h, b);
        EXPECT_EQ(coarse_of_fine(i, h), I);
        EXPECT_EQ(i % h, I % h) << "a coarse cell merges cells of its own lattice";
      }
  EXPECT_EQ(fine_of_coarse(1, 2, 0), 1);
  EXPECT_EQ(fine_of_coarse(1, 2, 1), 3);
  EXPECT_EQ(fine_of_coarse(2, 2, 0), 4);
}

TEST(MultigridKernels, PlanRefusesStridesThatAreNotPowersOfTwo) {
  const std::vector<TileLayout> tiles = {{8, 8, 8, 3}};
  ColumnCouplings h = kLaplc;
  h.h = 3;
  EXPECT_THROW(make_vcycle_plan(tiles, {h}, {laplc_coefficients(8).size()}, 2, 0.9), std::invalid_argument);
}

TEST(MultigridKernels, RestrictionIsProlongationTransposedOverEight) {
  const auto c = laplc_coefficients(kF.nz);
  const auto r = random_field(kF, 1), yc = random_field(kC, 2);
  const std::vector<double> zero(kF.size(), 0.0);
  std::vector<double> rc(kC.size(), 0.0), py(kF.size(), 0.0);
  mg_restrict_residual_cpu(kF, kC, kLaplc, c.data(), kRunning.data(), 2, r.data(), zero.data(), rc.data());
  mg_prolong_add_cpu(kF, kC, kLaplc, kRunning.data(), 2, yc.data(), py.data());
  double lhs = 0, rhs = 0;
  for (int k = 0; k < kC.nz; ++k)
    for (int j = 0; j < kC.ny; ++j)
      for (int i = 0; i < kC.nx; ++i) lhs += 8.0 * rc[kC.at(i, j, k)] * yc[kC.at(i, j, k)];
  for (int k = 0; k < kF.nz; ++k)
    for (int j = 0; j < kF.ny; ++j)
      for (int i = 0; i < kF.nx; ++i) rhs += r[kF.at(i, j, k)] * py[kF.at(i, j, k)];
  EXPECT_NEAR(lhs, rhs, 1e-12 * std::fabs(rhs) + 1e-12);
  // A field constant on each lattice restricts to the same constants on the coarse lattices.
  std::vector<double> lat(kF.size());
  for (int k = 0; k < kF.nz; ++k)
    for (int j = -kF.halo; j < kF.ny + kF.halo; ++j)
      for (int i = -kF.halo; i < kF.nx + kF.halo; ++i)
        lat[kF.at(i, j, k)] = 1.0 + ((i + 8) % 2) + 2 * ((j + 8) % 2) + 4 * (k % 2);
  mg_restrict_residual_cpu(kF, kC, kLaplc, c.data(), kRunning.data(), 2, lat.data(), zero.data(), rc.data());
  for (int k = 0; k < kC.nz; ++k)
    for (int j = 0; j < kC.ny; ++j)
      for (int i = 0; i < kC.nx; ++i) EXPECT_EQ(rc[kC.at(i, j, k)], 1.0 + i % 2 + 2 * (j % 2) + 4 * (k % 2));
}

TEST(MultigridKernels, JacobiIsTheDampedResidualUpdate) {
  const auto c = laplc_coefficients(kF.nz);
  const auto r = random_field(kF, 3), z = random_field(kF, 4);
  std::vector<double> az(kF.size(), 0.0), out(kF.size(), 0.0), first(kF.size(), 0.0);
  elliptic_apply_cpu(kF, kLaplc, c.data(), kRunning.data(), 2, z.data(), az.data());
  mg_jacobi_cpu(kF, kLaplc, c.data(), kRunning.data(), 2, 0.9, false, r.data(), z.data(), out.data());
  mg_jacobi_cpu(kF, kLaplc, c.data(), kRunning.data(), 2, 0.9, true, r.data(), nullptr, first.data());
  for (int k = 0; k < kF.nz; ++k)
    for (int j = 0; j < kF.ny; ++j)
      for (int i = 0; i < kF.nx; ++i) {
        const std::ptrdiff_t o = kF.at(i, j, k);
        // The weight omega / diag, from the stored inverse of the diagonal (no division in the sweeps).
        const double diag = c[kC0 * kF.nz + k] * c[kD * kF.nz + k], w = 0.9 * (1.0 / diag);
        ASSERT_EQ(c[kInvDiag * kF.nz + k], 1.0 / diag);
        EXPECT_EQ(out[o], z[o] + w * (r[o] - az[o]));
        EXPECT_EQ(first[o], w * r[o]);
      }
  // Skipped once the solve is done: nothing written.
  std::vector<double> done(state_doubles(4), 0.0), untouched(kF.size(), 5.0);
  done[state::kDone] = 2.0;
  mg_jacobi_cpu(kF, kLaplc, c.data(), done.data(), 2, 0.9, true, r.data(), nullptr, untouched.data());
  EXPECT_EQ(untouched[kF.at(3, 3, 3)], 5.0);
}

// The former cell-by-cell CPU forms (multigrid_kernel.hpp's cell formulae, which the CUDA kernels
// run): the row-wise CPU kernels must give their bits.
namespace mg_reference {

void restrict_residual(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* coef,
                       const double* r, const double* z, double* rc) {
  for (int K = 0; K < C.nz; ++K)
    for (int J = 0; J < C.ny; ++J)
      for (int I = 0; I < C.nx; ++I) rc[C.at(I, J, K)] = restrict_residual_cell(F, h, coef, r, z, I, J, K);
}
void prolong_add(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* zc, double* z) {
  for (int k = 0; k < F.nz; ++k)
    for (int j = 0; j < F.ny; ++j)
      for (int i = 0; i < F.nx; ++i)
        z[F.at(i, j, k)] += zc[C.at(coarse_of_fine(i, h.h), coarse_of_fine(j, h.h), coarse_of_fine(k, h.s))];
}
void jacobi(const TileLayout& L, const ColumnCouplings& h, const double* coef, double omega, bool first,
            const double* r, const double* z_in, double* z_out) {
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const std::ptrdiff_t o = L.at(i, j, k);
        z_out[o] = first ? jacobi_first(coef, L.nz, k, omega, r[o]) : jacobi_cell(L, h, coef, omega, r, z_in, i, j, k);
      }
}

}  // namespace mg_reference

TEST(MultigridKernels, RowFormsGiveTheCellFormBitForBit) {
  // Both strides (laplc's 2 and the 7-point operator's 1), every vertical rule, and a second pair of
  // tiles with rows that are not multiples of the vector width; two magnitudes in the fields, so that
  // a change in the order of the restriction's sum shows.
  const TileLayout fine[] = {kF, TileLayout{36, 12, 20, 2}};
  const TileLayout coarse[] = {kC, TileLayout{18, 6, 10, 2}};
  const ColumnCouplings rules[] = {kLaplc, ColumnCouplings{1.1, 0.9, 1.3, 1.2, 1, 1, kZeroFlux},
                                   ColumnCouplings{0.7, 0.6, 0.5, 0.4, 2, 2, kWrapMirror}};
  const auto st = std::vector<double>(state_doubles(1), 0.0);
  auto same = [](const std::vector<double>& a, const std::vector<double>& b) {
    return std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
  };
  int cases = 0;
  for (int n = 0; n < 2; ++n)
    for (const ColumnCouplings& h : rules) {
      const TileLayout &F = fine[n], &C = coarse[n];
      auto field = [](const TileLayout& L, unsigned seed) {
        auto f = tdc_test::random_values(L.size(), seed);
        for (std::size_t m = 0; m < f.size(); m += 7) f[m] = std::ldexp(f[m], 30);
        return f;
      };
      const auto c = laplc_coefficients(F.nz);
      const auto r = field(F, 60), z = field(F, 61), zc = field(C, 62);
      std::vector<double> rc = field(C, 63), rc2 = rc;
      mg_restrict_residual_cpu(F, C, h, c.data(), st.data(), 2, r.data(), z.data(), rc.data());
      mg_reference::restrict_residual(F, C, h, c.data(), r.data(), z.data(), rc2.data());
      EXPECT_TRUE(same(rc, rc2)) << "restriction, nx " << F.nx << " h " << h.h;
      auto zp = z, zp2 = z;
      mg_prolong_add_cpu(F, C, h, st.data(), 2, zc.data(), zp.data());
      mg_reference::prolong_add(F, C, h, zc.data(), zp2.data());
      EXPECT_TRUE(same(zp, zp2)) << "prolongation, nx " << F.nx << " h " << h.h;
      for (const bool first : {true, false}) {
        auto zo = field(F, 64), zo2 = zo;
        mg_jacobi_cpu(F, h, c.data(), st.data(), 2, 0.8, first, r.data(), z.data(), zo.data());
        mg_reference::jacobi(F, h, c.data(), 0.8, first, r.data(), z.data(), zo2.data());
        EXPECT_TRUE(same(zo, zo2)) << "jacobi, nx " << F.nx << " h " << h.h << " first " << first;
      }
      ++cases;
    }
  EXPECT_EQ(cases, 6);
}

#if defined(TASKDYCORE_HAVE_CUDA)
using Dev = tdc_test::DeviceArray;

void expect_same(const std::vector<double>& a, const std::vector<double>& b, const char* what) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0) << what;
}

TEST(MultigridCpuCudaAgreement, AllKernels) {
  if (!tdc_test::have_device())
    GTEST_SKIP() << "no CUDA device on this machine: run the agreement tests on the GPU machine";
  for (int wrap : {kWrapPeriodic, kWrapMirror}) {
    ColumnCouplings h = kLaplc;
    h.z_wrap = wrap;
    const auto c = laplc_coefficients(kF.nz);
    const auto r = random_field(kF, 5), z = random_field(kF, 6), zc = random_field(kC, 7);
    Dev dc(c), dst(kRunning), dr(r), dz(z), dzc(zc);
    std::vector<double> rc(kC.size(), 0.0), out(kF.size(), 0.0), first(kF.size(), 0.0), pz = z;
    Dev drc(rc), dout(out), dfirst(first), dpz(pz);
    mg_restrict_residual_cpu(kF, kC, h, c.data(), kRunning.data(), 2, r.data(), z.data(), rc.data());
    mg_restrict_residual_cuda(kF, kC, h, dc.p, dst.p, 2, dr.p, dz.p, drc.p, 0);
    expect_same(rc, drc.host(), "mg_restrict_residual");
    mg_prolong_add_cpu(kF, kC, h, kRunning.data(), 2, zc.data(), pz.data());
    mg_prolong_add_cuda(kF, kC, h, dst.p, 2, dzc.p, dpz.p, 0);
    expect_same(pz, dpz.host(), "mg_prolong_add");
    mg_jacobi_cpu(kF, h, c.data(), kRunning.data(), 2, 0.9, false, r.data(), z.data(), out.data());
    mg_jacobi_cuda(kF, h, dc.p, dst.p, 2, 0.9, false, dr.p, dz.p, dout.p, 0);
    expect_same(out, dout.host(), "mg_jacobi");
    mg_jacobi_cpu(kF, h, c.data(), kRunning.data(), 2, 0.9, true, r.data(), nullptr, first.data());
    mg_jacobi_cuda(kF, h, dc.p, dst.p, 2, 0.9, true, dr.p, nullptr, dfirst.p, 0);
    expect_same(first, dfirst.host(), "mg_jacobi_first");
  }
}

// A single-tile hierarchy: its plan and every level's coefficients, concatenated.
struct Hierarchy {
  VcyclePlan plan;
  std::vector<double> coef;
};
Hierarchy hierarchy(const std::vector<TileLayout>& tiles, int wrap) {
  std::vector<ColumnCouplings> h(tiles.size(), kLaplc);
  if (h.size() > 2) h[2].h = h[2].s = 2;
  for (ColumnCouplings& c : h) c.z_wrap = wrap;
  Hierarchy y;
  std::vector<std::size_t> sizes;
  for (const TileLayout& L : tiles) {
    const auto c = laplc_coefficients(L.nz);
    y.coef.insert(y.coef.end(), c.begin(), c.end());
    sizes.push_back(c.size());
  }
  y.plan = make_vcycle_plan(tiles, h, sizes, 2, 0.9);
  return y;
}

// The single-tile cycle on a 3-level hierarchy: on the CPU the separate kernels and halo_self copies
// back to back, on the GPU the fused passes (restrict_first_sweep, prolong_sweep); the same bits.
TEST(MultigridCpuCudaAgreement, OneTaskVCycle) {
  if (!tdc_test::have_device())
    GTEST_SKIP() << "no CUDA device on this machine: run the agreement tests on the GPU machine";
  for (int wrap : {kWrapPeriodic, kWrapMirror, kZeroFlux}) {
    const std::vector<TileLayout> tiles = {{16, 16, 16, 2}, {8, 8, 8, 2}, {4, 4, 4, 2}};
    const Hierarchy y = hierarchy(tiles, wrap);
    const VcyclePlan& plan = y.plan;
    const std::vector<double>& coef = y.coef;
    const auto r = random_field(tiles[0], 11);
    std::vector<double> z(tiles[0].size(), 0.0), scratch(plan.scratch_doubles, 0.0);
    Dev dcoef(coef), dst(kRunning), dr(r), dz(z), dscratch(scratch);
    mg_vcycle_cpu(plan, coef.data(), kRunning.data(), r.data(), z.data(), scratch.data());
    mg_vcycle_cuda(plan, dcoef.p, dst.p, dr.p, dz.p, dscratch.p, 0);
    expect_same(z, dz.host(), "mg_vcycle");
    // The CUDA cycle replays a recorded graph behind a gate on the state: once the solve is done it
    // must leave z alone, and when it runs again it must read the arrays' new contents.
    std::vector<double> done = kRunning;
    done[state::kDone] = plan.skip_from;
    cudaMemcpy(dst.p, done.data(), done.size() * sizeof(double), cudaMemcpyHostToDevice);
    const std::vector<double> poison(z.size(), -7.0);
    cudaMemcpy(dz.p, poison.data(), z.size() * sizeof(double), cudaMemcpyHostToDevice);
    mg_vcycle_cuda(plan, dcoef.p, dst.p, dr.p, dz.p, dscratch.p, 0);
    expect_same(poison, dz.host(), "mg_vcycle once the solve is done");
    cudaMemcpy(dst.p, kRunning.data(), kRunning.size() * sizeof(double), cudaMemcpyHostToDevice);
    cudaMemcpy(dz.p, z.data(), z.size() * sizeof(double), cudaMemcpyHostToDevice);  // the ghosts as on the CPU
    const auto r2 = random_field(tiles[0], 12);
    cudaMemcpy(dr.p, r2.data(), r2.size() * sizeof(double), cudaMemcpyHostToDevice);
    mg_vcycle_cpu(plan, coef.data(), kRunning.data(), r2.data(), z.data(), scratch.data());
    mg_vcycle_cuda(plan, dcoef.p, dst.p, dr.p, dz.p, dscratch.p, 0);
    expect_same(z, dz.host(), "mg_vcycle replayed on new data");
  }
}

// The fused PCG's preconditioner step: on the GPU the update rides in the first sweep and the sums in
// the last (a block per group of dot_partial's items); on the CPU vector_update, the cycle and
// dot_partial. The same bits for r, z and the partials, on a 3-level hierarchy, on one whose finest
// level ends in a part-filled group (20 x 12 x 12 cells: 1.4 groups of 2048), and on a single level
// (no last sweep: the three steps as they are); then skipped once done, and replayed on new data.
TEST(MultigridCpuCudaAgreement, PcgPreconStep) {
  if (!tdc_test::have_device())
    GTEST_SKIP() << "no CUDA device on this machine: run the agreement tests on the GPU machine";
  const std::vector<std::vector<TileLayout>> hierarchies = {
      {{16, 16, 16, 2}, {8, 8, 8, 2}, {4, 4, 4, 2}}, {{20, 12, 12, 2}, {10, 6, 6, 2}}, {{20, 12, 12, 2}}};
  std::vector<double> running = kRunning;
  running[state::kAlpha] = 0.37;
  for (const auto& tiles : hierarchies)
    for (int wrap : {kWrapPeriodic, kZeroFlux}) {
      const Hierarchy y = hierarchy(tiles, wrap);
      const TileLayout& L = tiles[0];
      const auto q = random_field(L, 21);
      auto r = random_field(L, 22);
      std::vector<double> z(L.size(), 0.0), scratch(y.plan.scratch_doubles, 0.0), out(2 * kMaxSums, 0.0);
      Dev dcoef(y.coef), dst(running), dq(q), dr(r), dz(z), dscratch(scratch), dout(out);
      Dev dgroups(dot_partial_scratch_bytes(L) / sizeof(double) + 1, 0.0);
      auto run_both = [&] {
        mg_pcg_precon_cpu(y.plan, y.coef.data(), running.data(), q.data(), r.data(), z.data(), scratch.data(),
                          out.data());
        mg_pcg_precon_cuda(y.plan, dcoef.p, dst.p, dq.p, dr.p, dz.p, dscratch.p, dgroups.p, dout.p, 0);
      };
      run_both();
      expect_same(r, dr.host(), "mg_pcg_precon: r");
      expect_same(z, dz.host(), "mg_pcg_precon: z");
      expect_same(out, dout.host(), "mg_pcg_precon: partials");
      EXPECT_NE(out[0], 0.0);
      // Once the solve is done, nothing changes.
      std::vector<double> done = running;
      done[state::kDone] = y.plan.skip_from;
      cudaMemcpy(dst.p, done.data(), done.size() * sizeof(double), cudaMemcpyHostToDevice);
      mg_pcg_precon_cuda(y.plan, dcoef.p, dst.p, dq.p, dr.p, dz.p, dscratch.p, dgroups.p, dout.p, 0);
      expect_same(r, dr.host(), "mg_pcg_precon once done: r");
      expect_same(z, dz.host(), "mg_pcg_precon once done: z");
      expect_same(out, dout.host(), "mg_pcg_precon once done: partials");
      // Running again (a replay where recorded) on new data.
      cudaMemcpy(dst.p, running.data(), running.size() * sizeof(double), cudaMemcpyHostToDevice);
      r = random_field(L, 23);
      cudaMemcpy(dr.p, r.data(), r.size() * sizeof(double), cudaMemcpyHostToDevice);
      run_both();
      expect_same(r, dr.host(), "mg_pcg_precon replayed: r");
      expect_same(z, dz.host(), "mg_pcg_precon replayed: z");
      expect_same(out, dout.host(), "mg_pcg_precon replayed: partials");
    }
}
#endif

}  // namespace
