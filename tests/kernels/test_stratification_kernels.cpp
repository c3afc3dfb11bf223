// The stratified environment's kernels: the implicit buoyancy and the environment source solve the
// trapezoidal pair of w and theta'; Coriolis turns the extrapolated velocity by f dt; the absorber
// relaxes towards its target at its level's rate; the anelastic Courant numbers carry the face
// density; and each CUDA kernel equals its CPU form bit for bit (skipped without a device).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "codelets/absorber/absorber_kernel.hpp"
#include "codelets/anelastic/anelastic_kernel.hpp"
#include "codelets/buoyancy/buoyancy_kernel.hpp"
#include "codelets/coriolis/coriolis_kernel.hpp"
#include "codelets/stratification/stratification_kernel.hpp"
#include "random_values.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include "device_array.hpp"
#endif

using namespace tdc;

namespace {

const TileLayout kL{12, 10, 8, 3};

std::vector<double> random_field(unsigned seed) { return tdc_test::random_values(kL.size(), seed); }

// S_k, alpha_k, nu_k, rho_k and beta_k (a theta_0 that varies with height) for b and dt as the step
// forms them.
std::vector<double> profiles(double b, double dt) {
  std::vector<double> e(std::size_t(kEnvVectors) * kL.nz, 0.0);
  const auto s = tdc_test::random_values(kL.nz, 9, 0.0, 0.01);
  for (int k = 0; k < kL.nz; ++k) {
    const double beta = 1.0 - 0.03 * k;
    e[kEnvBuoyancy * kL.nz + k] = beta;
    e[kEnvDthetaDz * kL.nz + k] = s[k];
    e[kEnvAlpha * kL.nz + k] = 1.0 / (1.0 + 0.25 * dt * dt * b * beta * s[k]);
    e[kEnvDamping * kL.nz + k] = k >= kL.nz / 2 ? 0.01 * k : 0.0;
    e[kEnvDensity * kL.nz + k] = 1.0 - 0.07 * k;
  }
  return e;
}

// With no pressure, w = alpha (w^ + dt/2 b_k theta^) and then theta' = theta^ - dt/2 S w satisfy
// w = w^ + dt/2 b_k theta' and theta' = theta^ - dt/2 S w (the implicit half of the step), b_k = b beta_k.
TEST(StratificationKernels, ImplicitBuoyancySolvesTheTrapezoidalPair) {
  const double b = 9.81 / 300.0, dt = 10.0;
  const auto e = profiles(b, dt);
  const auto w_hat = random_field(1), theta_hat = random_field(2);
  auto w = w_hat, theta = theta_hat;
  implicit_buoyancy_cpu(ScaledArgs{kL, 0.5 * dt * b}, e.data(), theta.data(), w.data());
  environment_source_cpu(ScaledArgs{kL, -0.5 * dt}, e.data(), w.data(), theta.data());
  for (int k = 0; k < kL.nz; ++k)
    for (int j = 0; j < kL.ny; ++j)
      for (int i = 0; i < kL.nx; ++i) {
        const std::ptrdiff_t o = kL.at(i, j, k);
        const double s = e[kEnvDthetaDz * kL.nz + k], bk = b * e[kEnvBuoyancy * kL.nz + k];
        EXPECT_NEAR(w[o], w_hat[o] + 0.5 * dt * bk * theta[o], 1e-14);
        EXPECT_NEAR(theta[o], theta_hat[o] - 0.5 * dt * s * w[o], 1e-14);
      }
}

// The explicit half with theta_0(z): w + factor beta_k theta', and with beta = 1 the buoyancy codelet's bits.
TEST(StratificationKernels, HeightBuoyancyScalesByLevel) {
  auto e = profiles(0.03, 10.0);
  const auto theta = random_field(10), w0 = random_field(11);
  auto w = w0;
  height_buoyancy_cpu(ScaledArgs{kL, 0.15}, e.data(), theta.data(), w.data());
  for (int k = 0; k < kL.nz; ++k) {
    const std::ptrdiff_t o = kL.at(4, 5, k);
    EXPECT_DOUBLE_EQ(w[o], w0[o] + 0.15 * e[kEnvBuoyancy * kL.nz + k] * theta[o]);
  }
  for (int k = 0; k < kL.nz; ++k) e[kEnvBuoyancy * kL.nz + k] = 1.0;
  auto plain = w0;
  w = w0;
  height_buoyancy_cpu(ScaledArgs{kL, 0.15}, e.data(), theta.data(), w.data());
  buoyancy_cpu(BuoyancyArgs{kL, 0.15}, theta.data(), plain.data());
  EXPECT_EQ(w, plain);
}

// The correction's w is alpha_k times the plain gradient's, u and v are the plain gradient's.
TEST(StratificationKernels, StratifiedGradientWeightsTheVerticalComponent) {
  const auto e = profiles(0.03, 10.0);
  for (const ZBoundary zb : {ZBoundary::Periodic, ZBoundary::Rigid}) {
    const CentredArgs g{kL, 0.7, 0.8, 0.9, zb};
    const auto p = random_field(3);
    std::vector<double> plain[3], weighted[3];
    for (int q = 0; q < 3; ++q) plain[q] = weighted[q] = std::vector<double>(kL.size(), 0.0);
    pressure_gradient_cpu(g, p.data(), plain[0].data(), plain[1].data(), plain[2].data());
    stratified_gradient_cpu(g, e.data(), p.data(), weighted[0].data(), weighted[1].data(), weighted[2].data());
    EXPECT_EQ(plain[0], weighted[0]);
    EXPECT_EQ(plain[1], weighted[1]);
    for (int k = 0; k < kL.nz; ++k)
      for (int j = 0; j < kL.ny; ++j)
        for (int i = 0; i < kL.nx; ++i) {
          const std::ptrdiff_t o = kL.at(i, j, k);
          EXPECT_DOUBLE_EQ(weighted[2][o], e[kEnvAlpha * kL.nz + k] * plain[2][o]);
        }
  }
}

// A uniform (u, v) with u_g = v_g = 0 and v^(n-1) = v^n turns clockwise by f dt: u += f dt v,
// v -= f dt u; the geostrophic wind is the rest state.
TEST(StratificationKernels, CoriolisTurnsTheExtrapolatedVelocity) {
  const auto u = random_field(4), v = random_field(5);
  auto fu = u, fv = v;
  coriolis_cpu(CoriolisArgs{kL, 0.01, 0.0, 0.0}, u.data(), v.data(), u.data(), v.data(), fu.data(), fv.data());
  const std::ptrdiff_t o = kL.at(3, 4, 5);
  EXPECT_DOUBLE_EQ(fu[o], u[o] + 0.01 * v[o]);
  EXPECT_DOUBLE_EQ(fv[o], v[o] - 0.01 * u[o]);
  std::vector<double> ug(kL.size(), 2.0), vg(kL.size(), -1.0);
  auto gu = ug, gv = vg;
  coriolis_cpu(CoriolisArgs{kL, 0.01, 2.0, -1.0}, ug.data(), vg.data(), ug.data(), vg.data(), gu.data(), gv.data());
  EXPECT_EQ(gu, ug);
  EXPECT_EQ(gv, vg);
}

TEST(StratificationKernels, AbsorberRelaxesOnlyInItsLayer) {
  const auto e = profiles(0.03, 10.0);
  const auto src = random_field(6);
  auto dst = random_field(7);
  const auto before = dst;
  absorber_cpu(AbsorberArgs{kL, 2.0, 0.5}, e.data(), src.data(), dst.data());
  for (int k = 0; k < kL.nz; ++k) {
    const std::ptrdiff_t o = kL.at(1, 2, k);
    EXPECT_DOUBLE_EQ(dst[o], before[o] - 2.0 * e[kEnvDamping * kL.nz + k] * (src[o] - 0.5));
    if (k < kL.nz / 2) EXPECT_EQ(dst[o], before[o]);
  }
}

TEST(StratificationKernels, MassCourantCarriesTheFaceDensity) {
  const auto e = profiles(0.03, 10.0);
  const auto c0 = random_field(8);
  auto c1 = c0, c2 = c0, c3 = c0;
  mass_courant_cpu(MassCourantArgs{kL, kL.halo}, e.data(), c1.data(), c2.data(), c3.data());
  for (int k = 0; k < kL.nz; ++k) {
    const std::ptrdiff_t o = kL.at(2, 3, k);
    const double rho = e[kEnvDensity * kL.nz + k], below = k > 0 ? e[kEnvDensity * kL.nz + k - 1] : rho;
    EXPECT_EQ(c1[o], rho * c0[o]);
    EXPECT_EQ(c2[o], rho * c0[o]);
    EXPECT_DOUBLE_EQ(c3[o], 0.5 * (below + rho) * c0[o]);
  }
}

#if defined(TASKDYCORE_HAVE_CUDA)
using Dev = tdc_test::DeviceArray;

TEST(StratificationCpuCudaAgreement, EveryKernel) {
  if (!tdc_test::have_device())
    GTEST_SKIP() << "no CUDA device on this machine: run the agreement tests on the GPU machine";
  const auto e = profiles(0.03, 10.0);
  Dev de(e);
  std::vector<double> f[6];
  for (int q = 0; q < 6; ++q) f[q] = random_field(20 + q);
  Dev d0(f[0]), d1(f[1]), d2(f[2]), d3(f[3]), d4(f[4]), d5(f[5]);
  // Each on the ghost ring too, as far as the step computes it there.
  const int stencil = kL.halo - 1, pointwise = kL.halo;
  environment_source_cpu(ScaledArgs{kL, -5.0, pointwise}, e.data(), f[0].data(), f[1].data());
  environment_source_cuda(ScaledArgs{kL, -5.0, pointwise}, de.p, d0.p, d1.p, 0);
  EXPECT_EQ(f[1], d1.host()) << "environment_source";
  implicit_buoyancy_cpu(ScaledArgs{kL, 0.15, pointwise}, e.data(), f[1].data(), f[2].data());
  implicit_buoyancy_cuda(ScaledArgs{kL, 0.15, pointwise}, de.p, d1.p, d2.p, 0);
  EXPECT_EQ(f[2], d2.host()) << "implicit_buoyancy";
  height_buoyancy_cpu(ScaledArgs{kL, 0.15, pointwise}, e.data(), f[1].data(), f[2].data());
  height_buoyancy_cuda(ScaledArgs{kL, 0.15, pointwise}, de.p, d1.p, d2.p, 0);
  EXPECT_EQ(f[2], d2.host()) << "height_buoyancy";
  for (const ZBoundary zb : {ZBoundary::Periodic, ZBoundary::Rigid}) {
    const CentredArgs g{kL, 0.7, 0.8, 0.9, zb, stencil};
    stratified_gradient_cpu(g, e.data(), f[5].data(), f[0].data(), f[1].data(), f[2].data());
    stratified_gradient_cuda(g, de.p, d5.p, d0.p, d1.p, d2.p, 0);
    EXPECT_EQ(f[0], d0.host()) << "stratified_gradient u";
    EXPECT_EQ(f[2], d2.host()) << "stratified_gradient w";
  }
  coriolis_cpu(CoriolisArgs{kL, 0.01, 1.5, -0.5, pointwise}, f[0].data(), f[1].data(), f[2].data(), f[3].data(),
               f[4].data(), f[5].data());
  coriolis_cuda(CoriolisArgs{kL, 0.01, 1.5, -0.5, pointwise}, d0.p, d1.p, d2.p, d3.p, d4.p, d5.p, 0);
  EXPECT_EQ(f[4], d4.host()) << "coriolis u";
  EXPECT_EQ(f[5], d5.host()) << "coriolis v";
  absorber_cpu(AbsorberArgs{kL, 2.0, 0.5, pointwise}, e.data(), f[0].data(), f[3].data());
  absorber_cuda(AbsorberArgs{kL, 2.0, 0.5, pointwise}, de.p, d0.p, d3.p, 0);
  EXPECT_EQ(f[3], d3.host()) << "absorber";
  absorber_cpu(AbsorberArgs{kL, 2.0, 0.0, pointwise}, e.data(), f[4].data(), f[4].data());
  absorber_cuda(AbsorberArgs{kL, 2.0, 0.0, pointwise}, de.p, d4.p, d4.p, 0);
  EXPECT_EQ(f[4], d4.host()) << "absorber in place";
  mass_courant_cpu(MassCourantArgs{kL, kL.halo}, e.data(), f[0].data(), f[1].data(), f[2].data());
  mass_courant_cuda(MassCourantArgs{kL, kL.halo}, de.p, d0.p, d1.p, d2.p, 0);
  EXPECT_EQ(f[2], d2.host()) << "mass_courant";
  for (const ZBoundary zb : {ZBoundary::Periodic, ZBoundary::Rigid}) {
    const CentredArgs g{kL, 0.7, 0.8, 0.9, zb};
    mass_divergence_cpu(g, e.data(), f[0].data(), f[1].data(), f[2].data(), f[3].data());
    mass_divergence_cuda(g, de.p, d0.p, d1.p, d2.p, d3.p, 0);
    EXPECT_EQ(f[3], d3.host()) << "mass_divergence";
  }
}
#else
TEST(StratificationCpuCudaAgreement, EveryKernel) { GTEST_SKIP() << "built without CUDA"; }
#endif

}  // namespace
