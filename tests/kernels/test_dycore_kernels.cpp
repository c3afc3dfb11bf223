// The dynamical core's stencil kernels: the centred divergence of the centred gradient is laplc
// (the elliptic operator with stride 2), the advector gives dt/dx times the half-step velocity on
// the faces, and each CUDA kernel equals its CPU form bit for bit (skipped without a device).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "codelets/advector/advector_kernel.hpp"
#include "codelets/buoyancy/buoyancy_kernel.hpp"
#include "codelets/flow_diagnostics/flow_diagnostics_kernel.hpp"
#include "codelets/halo_self/halo_self_plan.hpp"
#include "codelets/max_courant/max_courant_kernel.hpp"
#include "codelets/elliptic_apply/elliptic_apply_kernel.hpp"
#include "codelets/pressure_gradient/pressure_gradient_kernel.hpp"
#include "codelets/solver_scalars/solver_state.hpp"
#include "codelets/viscous_diffusion/viscous_diffusion_kernel.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>

#include "device_array.hpp"
#endif

#include "random_values.hpp"
using namespace tdc;

namespace {

const TileLayout kL{20, 14, 12, 3};

std::vector<double> random_field(unsigned seed) { return tdc_test::random_values(kL.size(), seed); }

// Fills the ghost ring and nothing else periodically from the interior (what a halo exchange does
// for a single periodic tile).
void periodic_ghosts(std::vector<double>& f) {
  for (int k = 0; k < kL.nz; ++k)
    for (int j = -kL.halo; j < kL.ny + kL.halo; ++j)
      for (int i = -kL.halo; i < kL.nx + kL.halo; ++i)
        f[kL.at(i, j, k)] = f[kL.at((i + kL.nx) % kL.nx, (j + kL.ny) % kL.ny, k)];
}

// The step writes the forced velocity beside v^n (so v^n needs no copy): the same bits as forcing
// in place, only the interior written.
TEST(DycoreKernels, GradientFromIsGradientInPlace) {
  for (const ZBoundary zb : {ZBoundary::Periodic, ZBoundary::Rigid}) {
    const CentredArgs g{kL, 0.7, 0.8, 0.9, zb};
    const auto p = random_field(1);
    std::vector<double> v[3] = {random_field(2), random_field(3), random_field(4)};
    std::vector<double> out[3] = {random_field(5), random_field(6), random_field(7)};
    const std::vector<double> before = out[0];
    const double* v0[3] = {v[0].data(), v[1].data(), v[2].data()};
    double* to[3] = {out[0].data(), out[1].data(), out[2].data()};
    pressure_gradient_from_cpu(g, p.data(), v0, to);
    pressure_gradient_cpu(g, p.data(), v[0].data(), v[1].data(), v[2].data());
    for (int q = 0; q < 3; ++q)
      for (int k = 0; k < kL.nz; ++k)
        for (int j = -kL.halo; j < kL.ny + kL.halo; ++j)
          for (int i = -kL.halo; i < kL.nx + kL.halo; ++i) {
            const std::ptrdiff_t o = kL.at(i, j, k);
            const bool inside = i >= 0 && i < kL.nx && j >= 0 && j < kL.ny;
            if (inside) ASSERT_EQ(out[q][o], v[q][o]) << q << " " << i << " " << j << " " << k;
            if (!inside && q == 0) ASSERT_EQ(out[q][o], before[o]) << "ghost written at " << i << " " << j << " " << k;
          }
  }
}

// For periodic columns and for rigid lids (p even, w odd about them: the mirrored laplc).
TEST(DycoreKernels, DivergenceOfGradientIsLaplc) {
  for (const ZBoundary zb : {ZBoundary::Periodic, ZBoundary::Rigid}) {
    const double dx = 0.3, dy = 0.4, dz = 0.5;
    const CentredArgs g{kL, 0.5 / dx, 0.5 / dy, 0.5 / dz, zb};
    auto p = random_field(1);
    periodic_ghosts(p);
    std::vector<double> u(kL.size(), 0.0), v(kL.size(), 0.0), w(kL.size(), 0.0), f(kL.size(), 0.0);
    pressure_gradient_cpu(g, p.data(), u.data(), v.data(), w.data());  // v = -G p
    periodic_ghosts(u);
    periodic_ghosts(v);
    periodic_ghosts(w);
    divergence_cpu(g, u.data(), v.data(), w.data(), f.data());  // f = -D G p = -L p
    // laplc as the column operator: A = -L, strides 2, periodic or mirrored in z.
    const double ax = 1 / (4 * dx * dx), ay = 1 / (4 * dy * dy), az = 1 / (4 * dz * dz);
    const ColumnCouplings h{ax, ax, ay, ay, 2, 2, zb == ZBoundary::Rigid ? kWrapMirror : kWrapPeriodic};
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
    EXPECT_LT(worst, 1e-13 * scale) << (zb == ZBoundary::Rigid ? "rigid lids" : "periodic");
  }
}

// Under lids the mirrored laplc is symmetric (so PCG applies), and the bottom level couples to the
// level above it (the mirror image of level -2): the two interleaved chains of a column are joined.
TEST(DycoreKernels, MirroredLaplcIsSymmetric) {
  const double az = 0.7;
  const ColumnCouplings h{0.2, 0.2, 0.3, 0.3, 2, 2, kWrapMirror};
  std::vector<double> c(std::size_t(kLevelVectors) * kL.nz, 0.0);
  for (int k = 0; k < kL.nz; ++k) {
    c[kCb * kL.nz + k] = c[kCc * kL.nz + k] = az;
    c[kC0 * kL.nz + k] = -2 * (0.2 + 0.3 + az);
    c[kD * kL.nz + k] = -1.0;
  }
  auto x = random_field(5), y = random_field(6);
  periodic_ghosts(x);
  periodic_ghosts(y);
  std::vector<double> st(state_doubles(1), 0.0), ax(kL.size(), 0.0), ay(kL.size(), 0.0);
  elliptic_apply_cpu(kL, h, c.data(), st.data(), 2, x.data(), ax.data());
  elliptic_apply_cpu(kL, h, c.data(), st.data(), 2, y.data(), ay.data());
  double yax = 0, xay = 0;
  for (int k = 0; k < kL.nz; ++k)
    for (int j = 0; j < kL.ny; ++j)
      for (int i = 0; i < kL.nx; ++i) {
        yax += y[kL.at(i, j, k)] * ax[kL.at(i, j, k)];
        xay += x[kL.at(i, j, k)] * ay[kL.at(i, j, k)];
      }
  EXPECT_NEAR(yax, xay, 1e-12 * std::fabs(yax));
  std::vector<double> e(kL.size(), 0.0), ae(kL.size(), 0.0);
  e[kL.at(3, 3, 1)] = 1.0;  // level 1 is the mirror image of level -2, two below level 0
  elliptic_apply_cpu(kL, h, c.data(), st.data(), 2, e.data(), ae.data());
  EXPECT_EQ(ae[kL.at(3, 3, 0)], -az);
  EXPECT_EQ(ae[kL.at(3, 3, 1)], 2 * (0.2 + 0.3 + az));
}

TEST(DycoreKernels, LidsCarryNoFlowAndMirrorTheStencils) {
  std::vector<double> now(kL.size(), 2.0), old(kL.size(), 1.0), c1(kL.size()), c2(kL.size()), c3(kL.size());
  const AdvectorArgs a{kL, 0.1, 0.2, 0.3, ZBoundary::Rigid};
  advector_cpu(a, VelocityPointers{now.data(), now.data(), now.data(), old.data(), old.data(), old.data()}, c1.data(),
               c2.data(), c3.data());
  EXPECT_EQ(c3[kL.at(7, 2, 0)], 0.0);  // the lid
  EXPECT_DOUBLE_EQ(c3[kL.at(7, 2, 1)], 0.75);
  // Free slip: the viscous term of u, v reflects (zero vertical shear at the lid), that of w
  // changes sign (w_-1 = -w_0).
  std::vector<double> src(kL.size(), 1.0), u(kL.size(), 0.0), v(kL.size(), 0.0), w(kL.size(), 0.0);
  const DiffusionArgs d{kL, 0.0, 0.0, 0.1, ZBoundary::Rigid};
  const double* s3[3] = {src.data(), src.data(), src.data()};
  double* d3[3] = {u.data(), v.data(), w.data()};
  viscous_diffusion_cpu(d, s3, d3);
  EXPECT_EQ(u[kL.at(4, 4, 0)], 0.0);
  EXPECT_DOUBLE_EQ(w[kL.at(4, 4, 0)], 0.1 * -2.0);
  EXPECT_DOUBLE_EQ(w[kL.at(4, 4, kL.nz - 1)], 0.1 * -2.0);
  EXPECT_EQ(w[kL.at(4, 4, 3)], 0.0);
  // The divergence of a uniform w = 1 is zero inside and +-1 / (2 dz) at the lids (w_-1 = -w_0).
  std::vector<double> zero(kL.size(), 0.0), f(kL.size(), 0.0);
  const CentredArgs g{kL, 0.5, 0.5, 0.5, ZBoundary::Rigid};
  divergence_cpu(g, zero.data(), zero.data(), src.data(), f.data());
  EXPECT_EQ(f[kL.at(2, 2, 0)], 1.0);
  EXPECT_EQ(f[kL.at(2, 2, 5)], 0.0);
  EXPECT_EQ(f[kL.at(2, 2, kL.nz - 1)], -1.0);
}

TEST(DycoreKernels, BuoyancyAddsToW) {
  auto theta = random_field(3);
  std::vector<double> w(kL.size(), 1.0);
  buoyancy_cpu(BuoyancyArgs{kL, 0.25}, theta.data(), w.data());
  EXPECT_EQ(w[kL.at(5, 6, 7)], 1.0 + 0.25 * theta[kL.at(5, 6, 7)]);
  EXPECT_EQ(w[kL.at(-1, 0, 0)], 1.0);  // the ghost ring is left to the halo exchange
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

// The advector's ghost ring is what a halo exchange of c would bring, bit for bit, so c needs none:
// on a periodic tile whose velocities' rings hold their periodic images, c on advector_box equals c
// on the interior copied round by halo_self, everywhere but the ring's outermost lower layer.
TEST(DycoreKernels, AdvectorRingIsTheHaloExchangesRing) {
  for (const ZBoundary zb : {ZBoundary::Periodic, ZBoundary::Rigid}) {
    std::vector<double> v[6];
    for (int q = 0; q < 6; ++q) {
      v[q] = random_field(40 + q);
      strided_copies_cpu(halo_self_plan(kL, v[q].data()));
    }
    const AdvectorArgs a{kL, 0.1, 0.2, 0.3, zb, kL.halo};
    const VelocityPointers p{v[0].data(), v[1].data(), v[2].data(), v[3].data(), v[4].data(), v[5].data()};
    std::vector<double> c[3], ref[3];
    for (int q = 0; q < 3; ++q) c[q] = ref[q] = std::vector<double>(kL.size(), 0.0);
    advector_cpu(a, p, c[0].data(), c[1].data(), c[2].data());
    // The reference: the interior only, then its periodic images.
    for (int k = 0; k < kL.nz; ++k)
      for (int j = 0; j < kL.ny; ++j)
        for (int i = 0; i < kL.nx; ++i) advector_cell(a, p, ref[0].data(), ref[1].data(), ref[2].data(), i, j, k);
    for (auto& r : ref) strided_copies_cpu(halo_self_plan(kL, r.data()));
    const Box b = advector_box(kL, a.ring);
    EXPECT_EQ(b.i0, 1 - kL.halo);
    for (int q = 0; q < 3; ++q)
      for (int k = 0; k < kL.nz; ++k)
        for (int j = b.j0; j < b.j1; ++j)
          for (int i = b.i0; i < b.i1; ++i)
            ASSERT_EQ(c[q][kL.at(i, j, k)], ref[q][kL.at(i, j, k)]) << "c" << q + 1 << " at " << i << " " << j << " " << k;
  }
}

// The step's updates computed on the ghost ring (ring_box) give there what a halo exchange of their
// output would bring, bit for bit, so the step exchanges neither v~ nor v^(n+1): on a periodic tile
// whose inputs' rings hold their periodic images, each kernel's ring equals the periodic images of its
// interior. A stencil's ring stops a column short of its inputs' (kL.halo - 1), a pointwise one's not.
TEST(DycoreKernels, RingUpdatesAreTheExchangesRing) {
  for (const ZBoundary zb : {ZBoundary::Periodic, ZBoundary::Rigid}) {
    SCOPED_TRACE(zb == ZBoundary::Rigid ? "rigid lids" : "periodic");
    std::vector<double> in[4];
    for (int q = 0; q < 4; ++q) {
      in[q] = random_field(60 + q);
      strided_copies_cpu(halo_self_plan(kL, in[q].data()));
    }
    // run(ring, out): the kernel into out (3 fields, starting as copies of in[0..2]).
    auto check = [&](const char* name, int ring, const std::function<void(int, std::vector<double>*)>& run) {
      std::vector<double> ringed[3] = {in[0], in[1], in[2]}, ref[3] = {in[0], in[1], in[2]};
      run(ring, ringed);
      run(0, ref);
      for (auto& r : ref) strided_copies_cpu(halo_self_plan(kL, r.data()));
      const Box b = ring_box(kL, ring);
      for (int q = 0; q < 3; ++q)
        for (int k = 0; k < kL.nz; ++k)
          for (int j = b.j0; j < b.j1; ++j)
            for (int i = b.i0; i < b.i1; ++i)
              ASSERT_EQ(ringed[q][kL.at(i, j, k)], ref[q][kL.at(i, j, k)])
                  << name << " field " << q << " at " << i << " " << j << " " << k;
    };
    const int stencil = kL.halo - 1, pointwise = kL.halo;
    check("pressure_gradient", stencil, [&](int r, std::vector<double>* o) {
      pressure_gradient_cpu(CentredArgs{kL, 0.7, 0.8, 0.9, zb, r}, in[3].data(), o[0].data(), o[1].data(), o[2].data());
    });
    check("pressure_gradient_from", stencil, [&](int r, std::vector<double>* o) {
      const double* v0[3] = {in[1].data(), in[2].data(), in[0].data()};
      double* v[3] = {o[0].data(), o[1].data(), o[2].data()};
      pressure_gradient_from_cpu(CentredArgs{kL, 0.7, 0.8, 0.9, zb, r}, in[3].data(), v0, v);
    });
    check("viscous_diffusion", stencil, [&](int r, std::vector<double>* o) {
      const double* s[3] = {in[3].data(), in[1].data(), in[2].data()};
      double* v[3] = {o[0].data(), o[1].data(), o[2].data()};
      viscous_diffusion_cpu(DiffusionArgs{kL, 0.01, 0.02, 0.03, zb, r}, s, v);
    });
    check("buoyancy", pointwise, [&](int r, std::vector<double>* o) {
      buoyancy_cpu(BuoyancyArgs{kL, 0.3, r}, in[3].data(), o[2].data());
    });
  }
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

TEST(DycoreKernels, ScalarDiffusionDampsEachModeByItsDiscreteEigenvalue) {
  // theta' = 1 + cos(2 pi x / lx) + cos(4 pi y / ly) + cos(pi z / lz) at cell centres, between
  // insulating lids (even mirror): each mode is an eigenvector of the compact Laplacian, so one
  // explicit step scales it by 1 - 4 f sin^2(k d / 2) exactly; the constant is kept, and with it the total.
  const double fx = 0.05, fy = 0.07, fz = 0.11;
  auto mode = [&](int q, int i, int j, int k) {
    return q == 0   ? std::cos(2 * M_PI * (i + 0.5) / kL.nx)
           : q == 1 ? std::cos(4 * M_PI * (j + 0.5) / kL.ny)
                    : std::cos(M_PI * (k + 0.5) / kL.nz);
  };
  const double damp[3] = {1 - 4 * fx * std::pow(std::sin(M_PI / kL.nx), 2),
                          1 - 4 * fy * std::pow(std::sin(2 * M_PI / kL.ny), 2),
                          1 - 4 * fz * std::pow(std::sin(M_PI / (2 * kL.nz)), 2)};
  std::vector<double> src(kL.size());
  for (int k = 0; k < kL.nz; ++k)
    for (int j = -kL.halo; j < kL.ny + kL.halo; ++j)
      for (int i = -kL.halo; i < kL.nx + kL.halo; ++i)
        src[kL.at(i, j, k)] = 1.0 + mode(0, i, j, k) + mode(1, i, j, k) + mode(2, i, j, k);
  std::vector<double> dst = src;
  const DiffusionArgs a{kL, fx, fy, fz, ZBoundary::Rigid};
  scalar_diffusion_cpu(a, src.data(), dst.data());
  double worst = 0, before = 0, after = 0;
  for (int k = 0; k < kL.nz; ++k)
    for (int j = 0; j < kL.ny; ++j)
      for (int i = 0; i < kL.nx; ++i) {
        const double want = 1.0 + damp[0] * mode(0, i, j, k) + damp[1] * mode(1, i, j, k) + damp[2] * mode(2, i, j, k);
        worst = std::max(worst, std::fabs(dst[kL.at(i, j, k)] - want));
        before += src[kL.at(i, j, k)];
        after += dst[kL.at(i, j, k)];
      }
  EXPECT_LT(worst, 1e-14);
  EXPECT_NEAR(after, before, 1e-12 * before);
  // The same term as the velocity's even components (u, v): one formula for both.
  std::vector<double> u = src, v = src, w = src;
  const double* s3[3] = {src.data(), src.data(), src.data()};
  double* d3[3] = {u.data(), v.data(), w.data()};
  viscous_diffusion_cpu(a, s3, d3);
  EXPECT_EQ(u, dst);
  EXPECT_NE(w, dst);  // w is odd about the lids
}

FlowDiagnosticsArgs flow_args(ZBoundary zb) {
  FlowDiagnosticsArgs a;
  a.centred = CentredArgs{kL, 0.6, 0.7, 0.8, zb};
  a.cx = 0.1;
  a.cy = 0.2;
  a.cz = 0.3;
  a.dz = 0.5;
  a.with_theta = 1;
  return a;
}

TEST(DycoreKernels, FlowDiagnosticsSumsAndMaxima) {
  // A uniform flow (1, 2, 3) with theta' = 1 everywhere: no vorticity and no divergence inside;
  // under lids w's mirror makes D v = +-3 * 2 gz at the bottom and top levels.
  std::vector<double> u(kL.size(), 1.0), v(kL.size(), 2.0), w(kL.size(), 3.0), th(kL.size(), 1.0);
  std::vector<double> out(kFlowDoubles);
  const double cells = double(kL.nx) * kL.ny * kL.nz;
  for (const ZBoundary zb : {ZBoundary::Periodic, ZBoundary::Rigid}) {
    flow_diagnostics_cpu(flow_args(zb), u.data(), v.data(), w.data(), th.data(), out.data());
    EXPECT_EQ(out[2 * kKineticEnergy], 7.0 * cells);
    EXPECT_EQ(out[2 * kEnstrophy], 0.0);
    EXPECT_EQ(out[2 * kThetaSum], cells);
    EXPECT_DOUBLE_EQ(out[2 * kThetaZ], kL.nx * kL.ny * 0.5 * (kL.nz * kL.nz / 2.0));  // sum of (k + 1/2) dz
    EXPECT_DOUBLE_EQ(out[2 * kFlowSums + kMaxCourant], 0.1 + 0.4 + 0.9);
    EXPECT_EQ(out[2 * kFlowSums + kMaxDivergence], zb == ZBoundary::Rigid ? 0.8 * 6.0 : 0.0);
    EXPECT_EQ(out[2 * kFlowSums + kMaxTheta], 1.0);
  }
  // Solid rotation u = -y, v = x: vorticity 2 in z (centred differences are exact on it).
  for (int k = 0; k < kL.nz; ++k)
    for (int j = -kL.halo; j < kL.ny + kL.halo; ++j)
      for (int i = -kL.halo; i < kL.nx + kL.halo; ++i) {
        u[kL.at(i, j, k)] = -j * 1.0 / (2 * 0.7);  // gy (y_j+1 - y_j-1) = 1 with y = j / (2 gy)
        v[kL.at(i, j, k)] = i * 1.0 / (2 * 0.6);
        w[kL.at(i, j, k)] = 0.0;
      }
  flow_diagnostics_cpu(flow_args(ZBoundary::Periodic), u.data(), v.data(), w.data(), th.data(), out.data());
  EXPECT_DOUBLE_EQ(out[2 * kFlowSums + kMaxVorticity], 2.0);
  EXPECT_DOUBLE_EQ(out[2 * kVorticityL1], 2.0 * cells);
  EXPECT_DOUBLE_EQ(out[2 * kEnstrophy], 2.0 * cells);
}

TEST(DycoreKernels, MaxCourantIsTheDiagnosticsMaximumAndSeesNaN) {
  // The per-step check's number is the diagnostics' max_courant; the ghost ring does not count;
  // one NaN or infinity anywhere inside gives +inf (a maximum by fmax would drop a NaN).
  auto u = random_field(41), v = random_field(42), w = random_field(43), th = random_field(44);
  const MaxCourantArgs a{kL, 0.1, 0.2, 0.3};
  std::vector<double> flow(kFlowDoubles);
  flow_diagnostics_cpu(flow_args(ZBoundary::Periodic), u.data(), v.data(), w.data(), th.data(), flow.data());
  double m = -1.0;
  max_courant_cpu(a, u.data(), v.data(), w.data(), &m);
  EXPECT_EQ(m, flow[2 * kFlowSums + kMaxCourant]);
  u[kL.at(-1, 0, 0)] = 1e300;  // ghost ring
  max_courant_cpu(a, u.data(), v.data(), w.data(), &m);
  EXPECT_EQ(m, flow[2 * kFlowSums + kMaxCourant]);
  for (const double bad : {std::nan(""), -std::nan(""), HUGE_VAL, -HUGE_VAL}) {
    auto wb = w;
    wb[kL.at(kL.nx - 1, kL.ny - 1, kL.nz - 1)] = bad;
    max_courant_cpu(a, u.data(), v.data(), wb.data(), &m);
    EXPECT_EQ(m, HUGE_VAL) << bad;
  }
}

#if defined(TASKDYCORE_HAVE_CUDA)
using Dev = tdc_test::DeviceArray;

TEST(DycoreCpuCudaAgreement, MaxCourant) {
  if (!tdc_test::have_device())
    GTEST_SKIP() << "no CUDA device on this machine: run the agreement tests on the GPU machine";
  auto u = random_field(51), v = random_field(52), w = random_field(53);
  const MaxCourantArgs a{kL, 0.1, 0.2, 0.3};
  for (int pass = 0; pass < 2; ++pass) {  // then with a NaN inside
    if (pass == 1) v[kL.at(3, 4, 5)] = std::nan("");
    Dev du(u), dv(v), dw(w), out(std::vector<double>{-1.0});
    double cpu = -1.0;
    max_courant_cpu(a, u.data(), v.data(), w.data(), &cpu);
    max_courant_cuda(a, du.p, dv.p, dw.p, out.p, 0);
    EXPECT_EQ(std::vector<double>{cpu}, out.host()) << (pass ? "with a NaN" : "finite");
  }
}

TEST(DycoreCpuCudaAgreement, FlowDiagnostics) {
  if (!tdc_test::have_device())
    GTEST_SKIP() << "no CUDA device on this machine: run the agreement tests on the GPU machine";
  const auto u = random_field(31), v = random_field(32), w = random_field(33), th = random_field(34);
  Dev du(u), dv(v), dw(w), dth(th);
  Dev scratch(std::vector<double>(flow_diagnostics_scratch_bytes(kL) / sizeof(double) + 1, 0.0));
  for (const ZBoundary zb : {ZBoundary::Periodic, ZBoundary::Rigid}) {
    std::vector<double> cpu(kFlowDoubles), zero(kFlowDoubles, 0.0);
    Dev gpu(zero);
    flow_diagnostics_cpu(flow_args(zb), u.data(), v.data(), w.data(), th.data(), cpu.data());
    flow_diagnostics_cuda(flow_args(zb), du.p, dv.p, dw.p, dth.p, scratch.p, gpu.p, 0);
    EXPECT_EQ(cpu, gpu.host()) << (zb == ZBoundary::Rigid ? "rigid lids" : "periodic");
  }
}

TEST(DycoreCpuCudaAgreement, AdvectorGradientDivergence) {
  if (!tdc_test::have_device())
    GTEST_SKIP() << "no CUDA device on this machine: run the agreement tests on the GPU machine";
  for (const ZBoundary zb : {ZBoundary::Periodic, ZBoundary::Rigid}) {
    SCOPED_TRACE(zb == ZBoundary::Rigid ? "rigid lids" : "periodic");
    std::vector<double> f[6];
    std::unique_ptr<Dev> d[6];
    for (int q = 0; q < 6; ++q) {
      f[q] = random_field(10 + q);
      d[q].reset(new Dev(f[q]));
    }
    std::vector<double> c[3] = {random_field(20), random_field(21), random_field(22)};
    Dev dc0(c[0]), dc1(c[1]), dc2(c[2]);
    const AdvectorArgs a{kL, 0.1, 0.2, 0.3, zb, kL.halo};
    advector_cpu(a, VelocityPointers{f[0].data(), f[1].data(), f[2].data(), f[3].data(), f[4].data(), f[5].data()},
                 c[0].data(), c[1].data(), c[2].data());
    advector_cuda(a, VelocityPointers{d[0]->p, d[1]->p, d[2]->p, d[3]->p, d[4]->p, d[5]->p}, dc0.p, dc1.p, dc2.p, 0);
    EXPECT_EQ(c[0], dc0.host());
    EXPECT_EQ(c[1], dc1.host());
    EXPECT_EQ(c[2], dc2.host());
    const CentredArgs g{kL, 0.7, 0.8, 0.9, zb, kL.halo - 1};  // the gradients on the ring too
    pressure_gradient_cpu(g, f[3].data(), f[0].data(), f[1].data(), f[2].data());
    pressure_gradient_cuda(g, d[3]->p, d[0]->p, d[1]->p, d[2]->p, 0);
    for (int q = 0; q < 3; ++q) EXPECT_EQ(f[q], d[q]->host()) << "pressure_gradient component " << q;
    {  // the "from" form writes (f3, f4, f5) <- (f0, f1, f2) - G(p = f4 before): the in-place form's bits
      std::vector<double> in_place[3] = {f[0], f[1], f[2]};
      pressure_gradient_cpu(g, f[4].data(), in_place[0].data(), in_place[1].data(), in_place[2].data());
      std::vector<double> p = f[4], out[3] = {f[3], f[4], f[5]};
      const double* hv0[3] = {f[0].data(), f[1].data(), f[2].data()};
      double* hv[3] = {out[0].data(), out[1].data(), out[2].data()};
      pressure_gradient_from_cpu(g, p.data(), hv0, hv);
      Dev dp(p), d0(out[0]), d1(out[1]), d2(out[2]);
      const double* dv0[3] = {d[0]->p, d[1]->p, d[2]->p};
      double* dv[3] = {d0.p, d1.p, d2.p};
      pressure_gradient_from_cuda(g, dp.p, dv0, dv, 0);
      const std::vector<double> gpu[3] = {d0.host(), d1.host(), d2.host()};
      for (int q = 0; q < 3; ++q) {
        EXPECT_EQ(out[q], gpu[q]) << "pressure_gradient_from component " << q;
        for (int k = 0; k < kL.nz; ++k)
          for (int j = 1 - kL.halo; j < kL.ny + kL.halo - 1; ++j)
            for (int i = 1 - kL.halo; i < kL.nx + kL.halo - 1; ++i)
              ASSERT_EQ(out[q][kL.at(i, j, k)], in_place[q][kL.at(i, j, k)]) << "from vs in place, component " << q;
      }
      EXPECT_NE(out[0], f[3]);
    }
    divergence_cpu(g, f[0].data(), f[1].data(), f[2].data(), f[4].data());
    divergence_cuda(g, d[0]->p, d[1]->p, d[2]->p, d[4]->p, 0);
    EXPECT_EQ(f[4], d[4]->host()) << "divergence";
    const DiffusionArgs diff{kL, 0.01, 0.02, 0.03, zb, kL.halo - 1};
    const double* hs[3] = {f[3].data(), f[4].data(), f[5].data()};
    double* hd[3] = {f[0].data(), f[1].data(), f[2].data()};
    const double* ds[3] = {d[3]->p, d[4]->p, d[5]->p};
    double* dd[3] = {d[0]->p, d[1]->p, d[2]->p};
    viscous_diffusion_cpu(diff, hs, hd);
    viscous_diffusion_cuda(diff, ds, dd, 0);
    for (int q = 0; q < 3; ++q) EXPECT_EQ(f[q], d[q]->host()) << "viscous_diffusion component " << q;
    scalar_diffusion_cpu(diff, f[4].data(), f[5].data());
    scalar_diffusion_cuda(diff, d[4]->p, d[5]->p, 0);
    EXPECT_EQ(f[5], d[5]->host()) << "scalar_diffusion";
    buoyancy_cpu(BuoyancyArgs{kL, 0.3, kL.halo}, f[5].data(), f[2].data());
    buoyancy_cuda(BuoyancyArgs{kL, 0.3, kL.halo}, d[5]->p, d[2]->p, 0);
    EXPECT_EQ(f[2], d[2]->host()) << "buoyancy";
  }
}
#else
TEST(DycoreCpuCudaAgreement, AdvectorGradientDivergence) { GTEST_SKIP() << "built without CUDA"; }
TEST(DycoreCpuCudaAgreement, FlowDiagnostics) { GTEST_SKIP() << "built without CUDA"; }
TEST(DycoreCpuCudaAgreement, MaxCourant) { GTEST_SKIP() << "built without CUDA"; }
#endif

}  // namespace
