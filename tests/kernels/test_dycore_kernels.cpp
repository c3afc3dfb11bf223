// The dynamical core's stencil kernels: the centred divergence of the centred gradient is laplc
// (the elliptic operator with stride 2), the advector gives dt/dx times the half-step velocity on
// the faces, and each CUDA kernel equals its CPU form bit for bit (skipped without a device).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "codelets/advector/advector_kernel.hpp"
#include "codelets/elliptic_apply/elliptic_apply_kernel.hpp"
#include "codelets/pressure_gradient/pressure_gradient_kernel.hpp"
#include "codelets/solver_scalars/solver_state.hpp"
#include "codelets/viscous_diffusion/viscous_diffusion_kernel.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>

#include "device_array.hpp"
#endif

using namespace tdc;

namespace {

const TileLayout kL{20, 14, 12, 3};

std::vector<double> random_field(unsigned seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> f(kL.size());
  for (double& x : f) x = u(g);
  return f;
}

// Fills the ghost ring and nothing else periodically from the interior (what a halo exchange does
// for a single periodic tile).
void periodic_ghosts(std::vector<double>& f) {
  for (int k = 0; k < kL.nz; ++k)
    for (int j = -kL.halo; j < kL.ny + kL.halo; ++j)
      for (int i = -kL.halo; i < kL.nx + kL.halo; ++i)
        f[kL.at(i, j, k)] = f[kL.at((i + kL.nx) % kL.nx, (j + kL.ny) % kL.ny, k)];
}

TEST(DycoreKernels, DivergenceOfGradientIsLaplc) {
  const double dx = 0.3, dy = 0.4, dz = 0.5;
  const CentredArgs g{kL, 0.5 / dx, 0.5 / dy, 0.5 / dz};
  auto p = random_field(1);
  periodic_ghosts(p);
  std::vector<double> u(kL.size(), 0.0), v(kL.size(), 0.0), w(kL.size(), 0.0), f(kL.size(), 0.0);
  pressure_gradient_cpu(g, p.data(), u.data(), v.data(), w.data());  // v = -G p
  periodic_ghosts(u);
  periodic_ghosts(v);
  periodic_ghosts(w);
  divergence_cpu(g, u.data(), v.data(), w.data(), f.data());  // f = -D G p = -L p
  // laplc as the column operator: A = -L, strides 2, periodic in z.
  const double ax = 1 / (4 * dx * dx), ay = 1 / (4 * dy * dy), az = 1 / (4 * dz * dz);
  const ColumnCouplings h{ax, ax, ay, ay, 2, 2, 1};
  std::vector<double> c(std::size_t(kLevelVectors) * kL.nz, 0.0);
  for (int k = 0; k < kL.nz; ++k) {
    c[kCb * kL.nz + k] = c[kCc * kL.nz + k] = az;
    c[kC0 * kL.nz + k] = -2 * (ax + ay + az);
    c[kD * kL.nz + k] = -1.0;
  }
  std::vector<double> st(state_doubles(1), 0.0), a(kL.size(), 0.0);
  elliptic_apply_cpu(kL, h, c.data(), st.data(), 2, p.data(), a.data());
  double worst = 0, scale = 0;
  for (int k = 0; k < kL.nz; ++k)
    for (int j = 0; j < kL.ny; ++j)
      for (int i = 0; i < kL.nx; ++i) {
        worst = std::max(worst, std::fabs(f[kL.at(i, j, k)] - a[kL.at(i, j, k)]));
        scale = std::max(scale, std::fabs(a[kL.at(i, j, k)]));
      }
  EXPECT_LT(worst, 1e-13 * scale);
}

TEST(DycoreKernels, AdvectorExtrapolatesToTheHalfStepOnFaces) {
  std::vector<double> now(kL.size(), 2.0), old(kL.size(), 1.0), c1(kL.size()), c2(kL.size()), c3(kL.size());
  const AdvectorArgs a{kL, 0.1, 0.2, 0.3};
  advector_cpu(a, VelocityPointers{now.data(), now.data(), now.data(), old.data(), old.data(), old.data()}, c1.data(),
               c2.data(), c3.data());
  // 1.5 * 2 - 0.5 * 1 = 2.5 everywhere.
  EXPECT_DOUBLE_EQ(c1[kL.at(3, 4, 5)], 0.25);
  EXPECT_DOUBLE_EQ(c2[kL.at(0, 0, 0)], 0.5);
  EXPECT_DOUBLE_EQ(c3[kL.at(7, 2, 0)], 0.75);  // the bottom face wraps to the top level
}

TEST(DycoreKernels, ViscousDiffusionIsTheCompactLaplacian) {
  // A Fourier mode in x: Lap_h sin(k x) = -(4 / dx^2) sin^2(k dx / 2) sin(k x) exactly.
  const double dx = 2 * M_PI / kL.nx, k = 2.0, nu_dt = 0.01;
  std::vector<double> src(kL.size()), u(kL.size(), 0.0), v(kL.size(), 0.0), w(kL.size(), 0.0);
  for (int kk = 0; kk < kL.nz; ++kk)
    for (int j = -kL.halo; j < kL.ny + kL.halo; ++j)
      for (int i = -kL.halo; i < kL.nx + kL.halo; ++i) src[kL.at(i, j, kk)] = std::sin(k * (i + 0.5) * dx);
  const DiffusionArgs a{kL, nu_dt / (dx * dx), nu_dt, nu_dt};
  const double* s3[3] = {src.data(), src.data(), src.data()};
  double* d3[3] = {u.data(), v.data(), w.data()};
  viscous_diffusion_cpu(a, s3, d3);
  const double factor = -nu_dt * 4 / (dx * dx) * std::pow(std::sin(k * dx / 2), 2);
  double worst = 0;
  for (int i = 0; i < kL.nx; ++i) worst = std::max(worst, std::fabs(u[kL.at(i, 3, 4)] - factor * src[kL.at(i, 3, 4)]));
  EXPECT_LT(worst, 1e-14);
}

#if defined(TASKDYCORE_HAVE_CUDA)
using Dev = tdc_test::DeviceArray;

TEST(DycoreCpuCudaAgreement, AdvectorGradientDivergence) {
  if (!tdc_test::have_device())
    GTEST_SKIP() << "no CUDA device on this machine: run the agreement tests on the GPU machine";
  std::vector<double> f[6];
  std::unique_ptr<Dev> d[6];
  for (int q = 0; q < 6; ++q) {
    f[q] = random_field(10 + q);
    d[q].reset(new Dev(f[q]));
  }
  std::vector<double> c[3] = {random_field(20), random_field(21), random_field(22)};
  Dev dc0(c[0]), dc1(c[1]), dc2(c[2]);
  const AdvectorArgs a{kL, 0.1, 0.2, 0.3};
  advector_cpu(a, VelocityPointers{f[0].data(), f[1].data(), f[2].data(), f[3].data(), f[4].data(), f[5].data()},
               c[0].data(), c[1].data(), c[2].data());
  advector_cuda(a, VelocityPointers{d[0]->p, d[1]->p, d[2]->p, d[3]->p, d[4]->p, d[5]->p}, dc0.p, dc1.p, dc2.p, 0);
  EXPECT_EQ(c[0], dc0.host());
  EXPECT_EQ(c[1], dc1.host());
  EXPECT_EQ(c[2], dc2.host());
  const CentredArgs g{kL, 0.7, 0.8, 0.9};
  pressure_gradient_cpu(g, f[3].data(), f[0].data(), f[1].data(), f[2].data());
  pressure_gradient_cuda(g, d[3]->p, d[0]->p, d[1]->p, d[2]->p, 0);
  for (int q = 0; q < 3; ++q) EXPECT_EQ(f[q], d[q]->host()) << "pressure_gradient component " << q;
  divergence_cpu(g, f[0].data(), f[1].data(), f[2].data(), f[4].data());
  divergence_cuda(g, d[0]->p, d[1]->p, d[2]->p, d[4]->p, 0);
  EXPECT_EQ(f[4], d[4]->host()) << "divergence";
  const DiffusionArgs diff{kL, 0.01, 0.02, 0.03};
  const double* hs[3] = {f[3].data(), f[4].data(), f[5].data()};
  double* hd[3] = {f[0].data(), f[1].data(), f[2].data()};
  const double* ds[3] = {d[3]->p, d[4]->p, d[5]->p};
  double* dd[3] = {d[0]->p, d[1]->p, d[2]->p};
  viscous_diffusion_cpu(diff, hs, hd);
  viscous_diffusion_cuda(diff, ds, dd, 0);
  for (int q = 0; q < 3; ++q) EXPECT_EQ(f[q], d[q]->host()) << "viscous_diffusion component " << q;
}
#else
TEST(DycoreCpuCudaAgreement, AdvectorGradientDivergence) { GTEST_SKIP() << "built without CUDA"; }
#endif

}  // namespace
