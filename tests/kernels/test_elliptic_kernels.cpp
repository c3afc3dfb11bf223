// The elliptic-solver kernels: each fused kernel against the composition of the plain operations,
// the line preconditioner against the column systems it solves, the fixed-order sums against a
// long-double sum, and every kernel's CUDA form against its CPU form bit for bit (skipped without a
// device: run on the GPU machine).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "codelets/dot_partial/dot_partial_kernel.hpp"
#include "codelets/elliptic_apply/elliptic_apply_kernel.hpp"
#include "codelets/gcr_step/gcr_step_kernel.hpp"
#include "codelets/line_precon/line_precon_kernel.hpp"
#include "codelets/pcg_fused/pcg_fused_kernel.hpp"
#include "codelets/pcg_line/pcg_line_kernel.hpp"
#include "codelets/residual_dot/residual_dot_kernel.hpp"
#include "codelets/residual_max/residual_max_kernel.hpp"
#include "codelets/solver_scalars/solver_scalars_kernel.hpp"
#include "codelets/vector_update/vector_update_kernel.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>

#include "device_array.hpp"
#endif

#include "random_values.hpp"
using namespace tdc;

namespace {

const TileLayout kL{37, 21, 19, 2};  // odd sizes: partial groups; halo 2 for the laplc stride

std::vector<double> random_field(unsigned seed, double lo = -1.0, double hi = 1.0) {
  return tdc_test::random_values(kL.size(), seed, lo, hi);
}

// A diagonally dominant column operator with graded-looking coefficients.
std::vector<double> coefficients(double area, const ColumnCouplings& h, int stride = 1, int nz = kL.nz) {
  std::vector<double> c(std::size_t(kLevelVectors) * nz, 0.0);
  std::mt19937_64 g(7);
  std::uniform_real_distribution<double> u(0.5, 2.0);
  for (int k = 0; k < nz; ++k) {
    const double cb = k + stride < nz ? 40.0 * u(g) : 0.0, cc = k >= stride ? 40.0 * u(g) : 0.0;
    c[kCb * nz + k] = cb;
    c[kCc * nz + k] = cc;
    c[kC0 * nz + k] = -area * u(g) - (h.ae + h.aw + h.an + h.as) - cb - cc;
    c[kD * nz + k] = -1e-3 * u(g);
  }
  finish_thomas_vectors(c.data(), nz, area, stride);
  return c;
}

const ColumnCouplings kH{1.1, 0.9, 1.3, 1.3};
const double kArea = 0.7;

// The shapes and vertical rules the row-form tests sweep: odd shapes (partial groups, rows that
// straddle groups), a 64-wide one, one whose sweeps take two blocks of rows (23 and 7), a 3-wide
// tile (every cell near an x edge); both strides and every vertical rule.
const TileLayout kRowShapes[] = {kL, TileLayout{64, 8, 12, 2}, TileLayout{5, 3, 7, 2}, TileLayout{40, 30, 70, 2}};
const ColumnCouplings kRowRules[] = {ColumnCouplings{1.1, 0.9, 1.3, 1.3, 1, 1, kZeroFlux},
                                     ColumnCouplings{0.25, 0.25, 0.25, 0.25, 2, 2, kWrapPeriodic},
                                     ColumnCouplings{0.7, 0.6, 0.5, 0.4, 2, 2, kWrapMirror}};

bool bitwise_same(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// Random values with every 7th 2^30 times larger: small terms then lose part of their bits against
// the large ones in the double-double sums, so that any change in the order of the items or of the
// pairs shows in the sums' bits.
std::vector<double> two_magnitudes(std::size_t n, unsigned seed) {
  auto f = tdc_test::random_values(n, seed, -1.0, 1.0);
  for (std::size_t m = 0; m < f.size(); m += 7) f[m] = std::ldexp(f[m], 30);
  return f;
}

std::vector<double> state_with(double alpha, double beta, double done = 0.0) {
  std::vector<double> st(state_doubles(10), 0.0);
  st[state::kAlpha] = alpha;
  st[state::kBeta] = beta;
  st[state::kDone] = done;
  for (int n = 0; n < kMaxGcrOld; ++n) st[state::kGcrAlpha + n] = -0.1 * (n + 1);
  return st;
}

void expect_bitwise_interior(const std::vector<double>& a, const std::vector<double>& b, const char* what) {
  int differ = 0;
  for (int k = 0; k < kL.nz; ++k)
    for (int j = 0; j < kL.ny; ++j)
      for (int i = 0; i < kL.nx; ++i)
        differ += std::memcmp(&a[kL.at(i, j, k)], &b[kL.at(i, j, k)], sizeof(double)) != 0;
  EXPECT_EQ(differ, 0) << what;
}

long double dot_ld(const std::vector<double>& x, const std::vector<double>& y) {
  long double s = 0;
  for (int k = 0; k < kL.nz; ++k)
    for (int j = 0; j < kL.ny; ++j)
      for (int i = 0; i < kL.nx; ++i) s += (long double)x[kL.at(i, j, k)] * y[kL.at(i, j, k)];
  return s;
}
double sum_of(const double* out, int n) { return out[2 * n] + out[2 * n + 1]; }

// max |f| over the tile's interior (what the kernels leave at kMaxAbsAt).
double interior_max_abs(const std::vector<double>& f) {
  double m = 0.0;
  for (int k = 0; k < kL.nz; ++k)
    for (int j = 0; j < kL.ny; ++j)
      for (int i = 0; i < kL.nx; ++i) m = std::max(m, std::fabs(f[kL.at(i, j, k)]));
  return m;
}

TEST(EllipticKernels, LinePreconditionerSolvesEveryColumnSystem) {
  for (int stride : {1, 2}) {  // 2: the interleaved systems of laplc's k +- 2 couplings
    const auto c = coefficients(kArea, kH, stride);
    const auto r = random_field(1);
    std::vector<double> z(kL.size(), 0.0);
    const auto st = state_with(0, 0);
    line_precon_cpu(kL, c.data(), st.data(), 2, stride, r.data(), z.data());
    const int nz = kL.nz;
    double worst = 0;
    for (int j = 0; j < kL.ny; ++j)
      for (int i = 0; i < kL.nx; ++i)
        for (int k = 0; k < nz; ++k) {
          const double below = k >= stride ? c[kCc * nz + k] * z[kL.at(i, j, k - stride)] : 0.0;
          const double above = k + stride < nz ? c[kCb * nz + k] * z[kL.at(i, j, k + stride)] : 0.0;
          const double lhs = c[kD * nz + k] * (below + c[kC0 * nz + k] * z[kL.at(i, j, k)] + above);
          worst = std::max(worst, std::fabs(lhs - r[kL.at(i, j, k)]));
        }
    EXPECT_LT(worst, 1e-12) << "stride " << stride;
  }
}

TEST(EllipticKernels, StrideTwoPeriodicApplyIsTheWideLaplacian) {
  // laplc on a uniform periodic grid: (x_{i+2} - 2 x_i + x_{i-2}) / (4 dx^2) in each direction.
  ColumnCouplings h{0.25, 0.25, 0.36, 0.36, 2, 2, 1};
  const int nz = kL.nz;
  std::vector<double> c(std::size_t(kLevelVectors) * nz, 0.0);
  for (int k = 0; k < nz; ++k) {
    c[kCb * nz + k] = c[kCc * nz + k] = 0.49;
    c[kC0 * nz + k] = -(0.5 + 0.72 + 0.98);
    c[kD * nz + k] = 1.0;
  }
  const auto x = random_field(3);
  std::vector<double> y(kL.size(), 0.0);
  const auto st = state_with(0, 0);
  elliptic_apply_cpu(kL, h, c.data(), st.data(), 2, x.data(), y.data());
  double worst = 0;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < kL.ny; ++j)
      for (int i = 0; i < kL.nx; ++i) {
        auto X = [&](int a, int b, int kk) { return x[kL.at(a, b, (kk + nz) % nz)]; };
        const double ref = 0.25 * (X(i + 2, j, k) - 2 * X(i, j, k) + X(i - 2, j, k)) +
                           0.36 * (X(i, j + 2, k) - 2 * X(i, j, k) + X(i, j - 2, k)) +
                           0.49 * (X(i, j, k + 2) - 2 * X(i, j, k) + X(i, j, k - 2));
        worst = std::max(worst, std::fabs(y[kL.at(i, j, k)] - ref));
      }
  EXPECT_LT(worst, 1e-14);
}

TEST(EllipticKernels, FusedApplyEqualsThePlainOperations) {
  const auto c = coefficients(kArea, kH);
  const auto st = state_with(0.37, 0.61);
  const double alpha = 0.37, beta = 0.61;
  double out[2 * kMaxSums];
  // Alg. 2: u <- u + alpha p; p <- z + beta p; q <- A z + beta q; <p,q>.
  auto u = random_field(5), p = random_field(6), zz = random_field(7), q = random_field(8);
  auto u_ref = u, p_ref = p, az(q);
  elliptic_apply_cpu(kL, kH, c.data(), st.data(), 2, zz.data(), az.data());
  auto q_ref = q;
  for (std::size_t n = 0; n < u.size(); ++n) {
    u_ref[n] = u[n] + alpha * p[n];
    p_ref[n] = zz[n] + beta * p[n];
    q_ref[n] = az[n] + beta * q[n];
  }
  pcg_fused_apply_cpu(kL, kH, c.data(), st.data(), u.data(), p.data(), zz.data(), q.data(), out);
  expect_bitwise_interior(u, u_ref, "u");
  expect_bitwise_interior(p, p_ref, "p");
  expect_bitwise_interior(q, q_ref, "q");
  EXPECT_NEAR(sum_of(out, 0), double(dot_ld(p_ref, q_ref)), 1e-12 * std::fabs(double(dot_ld(p_ref, q_ref))));
  // Finishing: only the pending u update.
  auto u2 = random_field(9), p2 = p, q2 = q;
  auto u2_ref = u2;
  for (std::size_t n = 0; n < u2.size(); ++n) u2_ref[n] = u2[n] + alpha * p2[n];
  const auto fin = state_with(alpha, beta, 1.0);
  pcg_fused_apply_cpu(kL, kH, c.data(), fin.data(), u2.data(), p2.data(), zz.data(), q2.data(), out);
  expect_bitwise_interior(u2, u2_ref, "u (finishing)");
  expect_bitwise_interior(p2, p, "p untouched when finishing");
}

// z's ghost ring filled from its periodic images (a single tile that is the whole periodic domain), or
// poisoned with NaN so that any read of it shows.
std::vector<double> with_ghosts(std::vector<double> z, bool periodic) {
  const int hx = kL.halo;
  for (int k = 0; k < kL.nz; ++k)
    for (int j = -hx; j < kL.ny + hx; ++j)
      for (int i = -hx; i < kL.nx + hx; ++i)
        if (i < 0 || j < 0 || i >= kL.nx || j >= kL.ny)
          z[kL.at(i, j, k)] = periodic ? z[kL.at((i + kL.nx) % kL.nx, (j + kL.ny) % kL.ny, k)] : std::nan("");
  return z;
}

TEST(EllipticKernels, PcgStartIsTheResidualAndTwoZeroings) {
  // One pass for what a PCG solve's start did in four tasks: r = A u, r = 1 f - 1 r, p = 0 f, q = 0 f.
  const auto c = coefficients(kArea, kH);
  const auto st = state_with(0.0, 0.0);
  const auto u = random_field(90), f = random_field(91);
  auto r_ref = random_field(92), p_ref = random_field(93), q_ref = random_field(94);
  auto r = r_ref, p = p_ref, q = q_ref;
  elliptic_apply_cpu(kL, kH, c.data(), st.data(), 3, u.data(), r_ref.data());
  vector_update_cpu(VectorUpdateArgs{kL, 3, -1, -1, 1.0, -1.0}, st.data(), f.data(), r_ref.data());
  vector_update_cpu(VectorUpdateArgs{kL, 3, -1, -1, 0.0, 0.0}, st.data(), f.data(), p_ref.data());
  vector_update_cpu(VectorUpdateArgs{kL, 3, -1, -1, 0.0, 0.0}, st.data(), f.data(), q_ref.data());
  pcg_start_cpu(kL, kH, c.data(), u.data(), f.data(), r.data(), p.data(), q.data());
  expect_bitwise_interior(r, r_ref, "r = f - A u");
  expect_bitwise_interior(p, p_ref, "p = 0 f (signed zeros as 0 f gives them)");
  expect_bitwise_interior(q, q_ref, "q = 0 f");
}

TEST(EllipticKernels, ResidualDotIsTheResidualThenDotPartial) {
  const auto c = coefficients(kArea, kH);
  auto st = state_with(0.37, 0.61);
  const auto u = random_field(95), f = random_field(96), q = random_field(97);
  auto r = random_field(98), r_ref = r;
  std::vector<double> out(2 * kMaxSums, 0.0), out_ref(out);
  // r <- r - beta q with its sums (GCR's update; PCG's takes kAlpha).
  vector_update_cpu(VectorUpdateArgs{kL, 2, state::kBeta, -1, -1.0, 1.0}, st.data(), q.data(), r_ref.data());
  dot_partial_cpu(kL, st.data(), 2, r_ref.data(), r_ref.data(), r_ref.data(), out_ref.data());
  residual_update_dot_cpu(kL, st.data(), 2, state::kBeta, q.data(), r.data(), out.data());
  expect_bitwise_interior(r, r_ref, "r - beta q");
  EXPECT_EQ(out, out_ref);
  EXPECT_GT(out[0], 0.0);
  // r = f - A u with its sums.
  elliptic_apply_cpu(kL, kH, c.data(), st.data(), 3, u.data(), r_ref.data());
  vector_update_cpu(VectorUpdateArgs{kL, 3, -1, -1, 1.0, -1.0}, st.data(), f.data(), r_ref.data());
  dot_partial_cpu(kL, st.data(), 3, r_ref.data(), r_ref.data(), r_ref.data(), out_ref.data());
  elliptic_residual_dot_cpu(kL, kH, c.data(), st.data(), 3, u.data(), f.data(), r.data(), out.data());
  expect_bitwise_interior(r, r_ref, "f - A u");
  EXPECT_EQ(out, out_ref);
  // Done: nothing written.
  st[state::kDone] = 2.0;
  const auto r_before = r;
  std::vector<double> untouched(2 * kMaxSums, 7.0);
  residual_update_dot_cpu(kL, st.data(), 2, state::kBeta, q.data(), r.data(), untouched.data());
  EXPECT_EQ(r, r_before);
  EXPECT_EQ(untouched, std::vector<double>(2 * kMaxSums, 7.0));
}

TEST(EllipticKernels, FusedApplyReadsZAtPeriodicImages) {
  // z_periodic (the one-task multigrid path skips z's halo exchange): with the ghost ring poisoned,
  // the same bits as the plain apply on a periodically filled ghost ring; for laplc's stride 2 and
  // paper 002's stride 1.
  for (const int s : {1, 2}) {
    ColumnCouplings h = kH;
    h.h = h.s = s;
    const auto c = coefficients(kArea, h, s);
    const auto st = state_with(0.3, 0.45);
    const auto z = random_field(80);
    auto u1 = random_field(81), p1 = random_field(82), q1 = random_field(83);
    auto u2 = u1, p2 = p1, q2 = q1;
    double o1[2 * kMaxSums], o2[2 * kMaxSums];
    pcg_fused_apply_cpu(kL, h, c.data(), st.data(), u1.data(), p1.data(), with_ghosts(z, true).data(), q1.data(), o1);
    pcg_fused_apply_cpu(kL, h, c.data(), st.data(), u2.data(), p2.data(), with_ghosts(z, false).data(), q2.data(), o2,
                        true);
    expect_bitwise_interior(q2, q1, "q from periodic images");
    expect_bitwise_interior(p2, p1, "p");
    EXPECT_EQ(std::memcmp(o1, o2, 2 * sizeof(double)), 0) << "<p, q>";
  }
}

// The ghost ring's edges of a field filled from its periodic images (a neighbour tile's bits).
std::vector<double> periodic_edges(std::vector<double> x) { return with_ghosts(x, true); }

TEST(EllipticKernels, LineStepAndDirectionEqualThePlainOperations) {
  for (const int s : {1, 2}) {  // paper 002's operator and laplc's strides
    SCOPED_TRACE(s);
    ColumnCouplings h = kH;
    h.h = h.s = s;
    h.z_wrap = s == 2 ? kWrapPeriodic : kZeroFlux;
    const auto c = coefficients(kArea, h, s);
    const double alpha = 0.37, beta = 0.61;
    auto st = state_with(alpha, beta);
    st[state::kIter] = 3.0;
    // Step: r <- r - alpha A p (A p given); z = M^-1 r; <r,r>, <r,z>, max |r|.
    const auto p = periodic_edges(random_field(20));
    const auto u = random_field(21);
    auto r = random_field(22), z = random_field(23);
    auto r_ref = r;
    std::vector<double> ap(kL.size(), 0.0), z_ref(kL.size(), 0.0);
    elliptic_apply_cpu(kL, h, c.data(), st.data(), 2, p.data(), ap.data());
    for (std::size_t n = 0; n < r.size(); ++n) r_ref[n] = r[n] - alpha * ap[n];
    line_precon_cpu(kL, c.data(), st.data(), 2, s, r_ref.data(), z_ref.data());
    double out[2 * kMaxSums];
    pcg_line_step_cpu(kL, h, c.data(), st.data(), ap.data(), r.data(), z.data(), out);
    expect_bitwise_interior(r, r_ref, "r");
    expect_bitwise_interior(z, z_ref, "z");
    EXPECT_NEAR(sum_of(out, 0), double(dot_ld(r_ref, r_ref)), 1e-13 * double(dot_ld(r_ref, r_ref)));
    EXPECT_NEAR(sum_of(out, 1), double(dot_ld(r_ref, z_ref)), 1e-12 * std::fabs(double(dot_ld(r_ref, z_ref))));
    EXPECT_EQ(out[kMaxAbsAt], interior_max_abs(r_ref)) << "max |r| (the max-norm stopping test)";
    // Direction: u's update deferred to even iterations (line_u_update): u stays at an odd one and
    // becomes u + alpha_prev q + alpha p at an even one (q: the direction before p, still in p' 's
    // buffer); p' = z + beta p (interior and the ghost ring's edges); A p', <p', A p'>.
    const auto zz = periodic_edges(random_field(24));
    const auto q = random_field(25);
    const double alpha_prev = 0.29;
    st[state::kAlphaPrev] = alpha_prev;
    std::vector<double> pn_ref(kL.size(), 0.0), apn(kL.size(), 0.0);
    for (std::size_t n = 0; n < pn_ref.size(); ++n) pn_ref[n] = zz[n] + beta * p[n];
    elliptic_apply_cpu(kL, h, c.data(), st.data(), 2, pn_ref.data(), apn.data());
    std::vector<double> pn;
    for (const int m : {3, 4}) {
      SCOPED_TRACE(testing::Message() << "iteration " << m);
      st[state::kIter] = m;
      auto uu = u, uu_ref = u;
      if (m % 2 == 0)
        for (std::size_t n = 0; n < u.size(); ++n) uu_ref[n] = (u[n] + alpha_prev * q[n]) + alpha * p[n];
      pn = q;
      std::vector<double> apn_out(kL.size(), 0.0);
      pcg_line_direction_cpu(kL, h, c.data(), st.data(), uu.data(), p.data(), zz.data(), pn.data(), apn_out.data(), out,
                             false);
      expect_bitwise_interior(uu, uu_ref, "u");
      expect_bitwise_interior(pn, pn_ref, "p'");
      expect_bitwise_interior(apn_out, apn, "A p' (the next step's A p)");
      EXPECT_NEAR(sum_of(out, 0), double(dot_ld(pn_ref, apn)), 1e-12 * std::fabs(double(dot_ld(pn_ref, apn))));
    }
    int ring_differs = 0;  // the edges the next A p' reads: the neighbour tile's p'
    for (int k = 0; k < kL.nz; ++k)
      for (int d = 1; d <= s; ++d) {
        for (int j = 0; j < kL.ny; ++j)
          ring_differs += pn[kL.at(-d, j, k)] != pn_ref[kL.at(-d, j, k)] ||
                          pn[kL.at(kL.nx - 1 + d, j, k)] != pn_ref[kL.at(kL.nx - 1 + d, j, k)];
        for (int i = 0; i < kL.nx; ++i)
          ring_differs += pn[kL.at(i, -d, k)] != pn_ref[kL.at(i, -d, k)] ||
                          pn[kL.at(i, kL.ny - 1 + d, k)] != pn_ref[kL.at(i, kL.ny - 1 + d, k)];
      }
    EXPECT_EQ(ring_differs, 0);
  }
}

// A breakdown (<p', A p'> <= 0) after a direction step that deferred u's update: the solve finishes
// through one more direction step, which adds the pending term of the last valid direction and not the
// broken one; the iteration count is the last valid one.
TEST(EllipticKernels, LineBreakdownKeepsThePendingUpdate) {
  const ColumnCouplings h = kH;
  const auto c = coefficients(kArea, h);
  for (const int m : {3, 4}) {  // the direction step that breaks down: u deferred (odd) or just updated (even)
    SCOPED_TRACE(m);
    auto st = state_with(0.37, 0.61);
    st[state::kIter] = m;
    st[state::kAlphaPrev] = 0.29;
    st[state::kMaxIter] = 50;
    const double alpha = st[state::kAlpha], alpha_prev = st[state::kAlphaPrev];
    const auto u0 = random_field(60), p = random_field(61), z = random_field(62), q = random_field(63);
    auto u = u0, older = q;  // older: the direction before p, in the buffer p' goes to
    std::vector<double> ap(kL.size(), 0.0);
    double out[2 * kMaxSums] = {};
    pcg_line_direction_cpu(kL, h, c.data(), st.data(), u.data(), p.data(), z.data(), older.data(), ap.data(), out,
                           true);
    auto expect = u0;
    if (m % 2 == 0)
      for (std::size_t n = 0; n < u0.size(); ++n) expect[n] = (u0[n] + alpha_prev * q[n]) + alpha * p[n];
    expect_bitwise_interior(u, expect, "u after the direction step");
    ScalarsArgs apply;
    apply.op = ScalarOp::PcgLineApply;
    apply.tiles = 1;
    apply.sums = 1;
    double broken[2 * kMaxSums] = {-1.0, 0.0};
    fold_scalars_cpu(apply, st.data(), broken);
    EXPECT_EQ(st[state::kDone], 1.0);
    // The next iteration: its step skips (done), its direction step finishes. p' (in `older`) is the
    // broken direction; p (the one before it) is in the other buffer, now p_next.
    double skipped[2 * kMaxSums] = {};
    auto r = random_field(64), zz = z;
    pcg_line_step_cpu(kL, h, c.data(), st.data(), ap.data(), r.data(), zz.data(), skipped);
    auto p_again = p;
    pcg_line_direction_cpu(kL, h, c.data(), st.data(), u.data(), older.data(), z.data(), p_again.data(), ap.data(), out,
                           true);
    if (m % 2 == 1)  // the deferred alpha_{m-1} p_{m-1}, and nothing of the broken direction
      for (std::size_t n = 0; n < u0.size(); ++n) expect[n] = u0[n] + alpha * p[n];
    expect_bitwise_interior(u, expect, "u after the finishing step");
    fold_scalars_cpu(apply, st.data(), broken);
    EXPECT_EQ(st[state::kDone], 2.0);
    EXPECT_EQ(st[state::kIter], double(m)) << "the broken direction is not an iteration";
    EXPECT_EQ(st[state::kConverged], 0.0);
  }
}

TEST(EllipticKernels, LineDirectionReadsPeriodicImagesAndStartsWithoutADirection) {
  for (const int s : {1, 2}) {
    SCOPED_TRACE(s);
    ColumnCouplings h = kH;
    h.h = h.s = s;
    const auto c = coefficients(kArea, h, s);
    auto st = state_with(0.3, 0.45);
    st[state::kIter] = 2.0;
    // Periodic: the same bits with the ghost rings poisoned as with them filled from periodic images.
    const auto p = random_field(30), z0 = random_field(31), r0 = random_field(32), u0 = random_field(33);
    auto u1 = u0, u2 = u0;
    double o1[2 * kMaxSums], o2[2 * kMaxSums];
    std::vector<double> n1(kL.size(), 0.0), n2(kL.size(), 0.0), a1(kL.size(), 0.0), a2(kL.size(), 0.0);
    pcg_line_direction_cpu(kL, h, c.data(), st.data(), u1.data(), with_ghosts(p, true).data(),
                           with_ghosts(z0, true).data(), n1.data(), a1.data(), o1, false);
    pcg_line_direction_cpu(kL, h, c.data(), st.data(), u2.data(), with_ghosts(p, false).data(),
                           with_ghosts(z0, false).data(), n2.data(), a2.data(), o2, true);
    expect_bitwise_interior(n2, n1, "direction from periodic images");
    expect_bitwise_interior(a2, a1, "A p' from periodic images");
    expect_bitwise_interior(u2, u1, "u");
    EXPECT_EQ(std::memcmp(o1, o2, 2 * sizeof(double)), 0) << "<p', A p'>";
    // A solve's first iteration: no direction yet (p and A p full of NaN are not read); u and r stay,
    // p' = z.
    st[state::kIter] = 0.0;
    const std::vector<double> nan_p(kL.size(), std::nan(""));
    auto u3 = u0, r3 = r0, z3 = z0;
    pcg_line_step_cpu(kL, h, c.data(), st.data(), nan_p.data(), r3.data(), z3.data(), o1);
    EXPECT_EQ(r3, r0);
    EXPECT_TRUE(std::isfinite(o1[0]) && std::isfinite(o1[2]));
    std::vector<double> n3(kL.size(), 0.0), a3(kL.size(), 0.0);
    pcg_line_direction_cpu(kL, h, c.data(), st.data(), u3.data(), nan_p.data(), z0.data(), n3.data(), a3.data(), o1,
                           true);
    EXPECT_EQ(u3, u0);
    expect_bitwise_interior(n3, z0, "the first direction is z");
    // Finishing (done 1): the step does nothing, the direction only adds the pending alpha p to u.
    st[state::kIter] = 2.0;
    st[state::kDone] = 1.0;
    std::vector<double> untouched(2 * kMaxSums, 7.0);
    auto u4 = u0, r4 = r0, z4 = z0, n4 = n3;
    pcg_line_step_cpu(kL, h, c.data(), st.data(), p.data(), r4.data(), z4.data(), untouched.data());
    EXPECT_TRUE(r4 == r0 && z4 == z0);
    EXPECT_EQ(untouched, std::vector<double>(2 * kMaxSums, 7.0));
    auto a4 = a3;
    pcg_line_direction_cpu(kL, h, c.data(), st.data(), u4.data(), p.data(), z0.data(), n4.data(), a4.data(), o1, true);
    auto u4_ref = u0;
    for (std::size_t n = 0; n < u0.size(); ++n) u4_ref[n] = u0[n] + 0.3 * p[n];
    expect_bitwise_interior(u4, u4_ref, "the pending u update");
    EXPECT_EQ(n4, n3) << "no new direction when finishing";
    EXPECT_EQ(a4, a3) << "no new A p' when finishing";
    // Done (2): nothing.
    st[state::kDone] = 2.0;
    auto u5 = u0;
    pcg_line_direction_cpu(kL, h, c.data(), st.data(), u5.data(), p.data(), z0.data(), n4.data(), a4.data(),
                           untouched.data(), true);
    EXPECT_EQ(u5, u0);
    EXPECT_EQ(untouched, std::vector<double>(2 * kMaxSums, 7.0));
  }
}

TEST(EllipticKernels, GcrKernelsEqualThePlainOperations) {
  const auto c = coefficients(kArea, kH);
  const auto st = state_with(0.0, 0.45);
  auto x = random_field(10), r = random_field(11), pl = random_field(12), ql = random_field(13), e = random_field(14);
  auto x_ref = x, r_ref = r;
  for (std::size_t n = 0; n < x.size(); ++n) {
    x_ref[n] = x[n] + 0.45 * pl[n];
    r_ref[n] = r[n] - 0.45 * ql[n];
  }
  std::vector<double> e_ref(kL.size(), 0.0);
  line_precon_cpu(kL, c.data(), st.data(), 2, 1, r_ref.data(), e_ref.data());
  double out[2 * kMaxSums];
  gcr_precon_cpu(kL, c.data(), st.data(), 1, x.data(), r.data(), pl.data(), ql.data(), e.data(), out);
  expect_bitwise_interior(x, x_ref, "x");
  expect_bitwise_interior(e, e_ref, "e");
  EXPECT_NEAR(sum_of(out, 0), double(dot_ld(r_ref, r_ref)), 1e-13 * double(dot_ld(r_ref, r_ref)));
  EXPECT_EQ(out[kMaxAbsAt], interior_max_abs(r_ref)) << "max |r|";

  std::vector<std::vector<double>> bp, bq;
  GcrBasis basis;
  basis.m = 3;
  for (int n = 0; n < 3; ++n) {
    bp.push_back(random_field(20 + n));
    bq.push_back(random_field(30 + n));
  }
  for (int n = 0; n < 3; ++n) {
    basis.p[n] = bp[n].data();
    basis.q[n] = bq[n].data();
  }
  auto ee = random_field(15);
  std::vector<double> ae(kL.size(), 0.0), ae_ref(kL.size(), 0.0);
  elliptic_apply_cpu(kL, kH, c.data(), st.data(), 2, ee.data(), ae_ref.data());
  gcr_apply_cpu(kL, kH, c.data(), st.data(), ee.data(), ae.data(), basis, out);
  expect_bitwise_interior(ae, ae_ref, "A e");
  for (int n = 0; n < 3; ++n) {
    const double ref = double(dot_ld(ae_ref, bq[n]));
    EXPECT_NEAR(sum_of(out, n), ref, 1e-12 * std::fabs(ref)) << "dot " << n;
  }
  std::vector<double> pn(kL.size(), 0.0);
  auto qn = ae, p_ref = ee, q_ref = ae;
  for (std::size_t i = 0; i < pn.size(); ++i)
    for (int n = 0; n < 3; ++n) {
      p_ref[i] = p_ref[i] + st[state::kGcrAlpha + n] * bp[n][i];
      q_ref[i] = q_ref[i] + st[state::kGcrAlpha + n] * bq[n][i];
    }
  gcr_direction_cpu(kL, st.data(), ee.data(), r.data(), pn.data(), qn.data(), basis, out);
  expect_bitwise_interior(pn, p_ref, "p_new");
  expect_bitwise_interior(qn, q_ref, "q_new");
  EXPECT_NEAR(sum_of(out, 1), double(dot_ld(r, q_ref)), 1e-12 * std::fabs(double(dot_ld(r, q_ref))));
}

// The cell-by-cell form of the GCR kernels (the CUDA kernels' per-cell formulae, one item per cell or
// column pushed into ItemReducer): the row-wise CPU kernels must give its bits, sums included.
namespace gcr_reference {

void precon(const TileLayout& L, const double* coef, const double* st, int s, double* x, double* r,
            const double* p_last, const double* q_last, double* e, double* out) {
  const double beta = st[state::kBeta];
  const int nz = L.nz;
  const std::ptrdiff_t P = L.plane();
  ItemReducer<1> red;
  std::vector<Sums<1>> row(L.nx);
  double r_max = 0.0;
  for (int j = 0; j < L.ny; ++j) {
    std::fill(row.begin(), row.end(), Sums<1>{});
    const std::ptrdiff_t o0 = L.at(0, j, 0);
    for (int k = 0; k < nz; ++k)
      for (int i = 0; i < L.nx; ++i) {
        const std::ptrdiff_t o = o0 + P * k + i;
        x[o] = x[o] + beta * p_last[o];
        const double rs = r[o] - beta * q_last[o];
        r[o] = rs;
        r_max = std::max(r_max, std::fabs(rs));
        row[i].v[0] = dd_add(row[i].v[0], rs * rs);
        e[o] = thomas_forward(coef, nz, k, rs, k >= s ? e[o - s * P] : 0.0);
      }
    for (int k = nz - 1; k >= 0; --k)
      for (int i = 0; i < L.nx; ++i) {
        const std::ptrdiff_t o = o0 + P * k + i;
        e[o] = thomas_backward(coef, nz, k, e[o], k + s < nz ? e[o + s * P] : 0.0);
      }
    for (int i = 0; i < L.nx; ++i) red.push(row[i]);
  }
  red.finish(out);
  out[kMaxAbsAt] = r_max;
  out[kMaxAbsAt + 1] = 0.0;
}

void apply(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* e, double* ae,
           const GcrBasis& basis, double* out) {
  ItemReducer<kMaxGcrOld> red;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) red.push(gcr_apply_cell(L, h, coef, e, ae, basis, i, j, k));
  red.finish(out);
}

void direction(const TileLayout& L, const double* st, const double* e, const double* r, double* p_new, double* q_new,
               const GcrBasis& basis, double* out) {
  ItemReducer<2> red;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) red.push(gcr_direction_cell(L, st, e, r, p_new, q_new, basis, i, j, k));
  red.finish(out);
}

}  // namespace gcr_reference

TEST(EllipticKernels, GcrKernelsGiveTheCellFormBitForBit) {
  // Odd shapes (partial groups and rows that straddle groups), a 64-wide one, one whose
  // gcr_precon takes two blocks of rows (23 and 7); both strides and every vertical rule; every
  // basis size.
  int cases = 0;
  for (const TileLayout& L : kRowShapes)
    for (const ColumnCouplings& h : kRowRules) {
      const auto c = coefficients(kArea, h, h.s, L.nz);
      const auto st = state_with(0.0, 0.45);
      auto field = [&](unsigned seed) { return two_magnitudes(L.size(), seed); };
      for (const bool with_nan : {false, true}) {
        auto x = field(10), r = field(11), pl = field(12), ql = field(13), e = field(14);
        // max |r| passes over a NaN on both (then the sum is NaN: the run without checks it)
        if (with_nan) r[L.at(L.nx / 2, L.ny / 2, L.nz / 2)] = std::nan("");
        auto x2 = x, r2 = r, e2 = e;
        double out[2 * kMaxSums] = {}, out2[2 * kMaxSums] = {};
        gcr_precon_cpu(L, c.data(), st.data(), h.s, x.data(), r.data(), pl.data(), ql.data(), e.data(), out);
        gcr_reference::precon(L, c.data(), st.data(), h.s, x2.data(), r2.data(), pl.data(), ql.data(), e2.data(), out2);
        EXPECT_TRUE(bitwise_same(x, x2) && bitwise_same(r, r2) && bitwise_same(e, e2))
            << "gcr_precon fields, nx " << L.nx << " s " << h.s;
        EXPECT_EQ(std::memcmp(out, out2, sizeof(out)), 0) << "gcr_precon sums, nx " << L.nx << " s " << h.s;
        if (!with_nan) EXPECT_FALSE(std::isnan(out[0]));
      }
      for (int m = 0; m <= kMaxGcrOld; ++m) {
        std::vector<std::vector<double>> bp, bq;
        GcrBasis basis;
        basis.m = m;
        for (int n = 0; n < m; ++n) {
          bp.push_back(field(20 + n));
          bq.push_back(field(30 + n));
        }
        for (int n = 0; n < m; ++n) {
          basis.p[n] = bp[n].data();
          basis.q[n] = bq[n].data();
        }
        const auto e = field(15), r = field(16);
        std::vector<double> ae(L.size(), 0.0), ae2 = ae;
        double out[2 * kMaxSums] = {}, out2[2 * kMaxSums] = {};
        gcr_apply_cpu(L, h, c.data(), st.data(), e.data(), ae.data(), basis, out);
        gcr_reference::apply(L, h, c.data(), e.data(), ae2.data(), basis, out2);
        EXPECT_TRUE(bitwise_same(ae, ae2)) << "gcr_apply A e, nx " << L.nx << " m " << m;
        EXPECT_EQ(std::memcmp(out, out2, sizeof(out)), 0) << "gcr_apply sums, nx " << L.nx << " m " << m;
        std::vector<double> pn(L.size(), 0.0), pn2 = pn;
        auto qn2 = ae;
        gcr_direction_cpu(L, st.data(), e.data(), r.data(), pn.data(), ae.data(), basis, out);
        gcr_reference::direction(L, st.data(), e.data(), r.data(), pn2.data(), qn2.data(), basis, out2);
        EXPECT_TRUE(bitwise_same(pn, pn2) && bitwise_same(ae, qn2)) << "gcr_direction p, q, nx " << L.nx << " m " << m;
        EXPECT_EQ(std::memcmp(out, out2, sizeof(out)), 0) << "gcr_direction sums, nx " << L.nx << " m " << m;
        ++cases;
      }
    }
  EXPECT_EQ(cases, 60);
}

// The former per-column, per-cell form of the PCG line kernels (apply_cell, one Sums item at a time
// into ItemReducer, the GPU kernels' items): the row-wise CPU kernels must give its bits.
namespace line_reference {

void step(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st, const double* ap,
          double* r, double* z, double* out) {
  const double alpha = st[state::kAlpha];
  const bool first = st[state::kIter] == 0.0;
  const int nz = L.nz, s = h.s;
  const std::ptrdiff_t P = L.plane();
  ItemReducer<2> red;
  std::vector<Sums<2>> row(L.nx);
  double r_max = 0.0;
  for (int j = 0; j < L.ny; ++j) {
    std::fill(row.begin(), row.end(), Sums<2>{});
    const std::ptrdiff_t o0 = L.at(0, j, 0);
    for (int k = 0; k < nz; ++k)
      for (int i = 0; i < L.nx; ++i) {
        const std::ptrdiff_t o = o0 + P * k + i;
        if (!first) r[o] = r[o] - alpha * ap[o];
        const double rs = r[o];
        r_max = std::max(r_max, std::fabs(rs));
        row[i].v[0] = dd_add(row[i].v[0], rs * rs);
        z[o] = thomas_forward(coef, nz, k, rs, k >= s ? z[o - s * P] : 0.0);
      }
    for (int k = nz - 1; k >= 0; --k)
      for (int i = 0; i < L.nx; ++i) {
        const std::ptrdiff_t o = o0 + P * k + i;
        const double zs = thomas_backward(coef, nz, k, z[o], k + s < nz ? z[o + s * P] : 0.0);
        z[o] = zs;
        row[i].v[1] = dd_add(row[i].v[1], zs * r[o]);
      }
    for (int i = 0; i < L.nx; ++i) red.push(row[i]);
  }
  red.finish(out);
  out[kMaxAbsAt] = r_max;
  out[kMaxAbsAt + 1] = 0.0;
}

void direction(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st, double* u,
               const double* p, const double* z, double* p_next, double* ap_next, double* out, bool periodic) {
  const double alpha = st[state::kAlpha], alpha_prev = st[state::kAlphaPrev], beta = st[state::kBeta];
  const bool first = st[state::kIter] == 0.0, finishing = st[state::kDone] >= 1.0;
  const LineUpdate up = line_u_update(st);
  if (up.now)
    for (int k = 0; k < L.nz; ++k)
      for (int j = 0; j < L.ny; ++j)
        for (int i = 0; i < L.nx; ++i) {
          const std::ptrdiff_t o = L.at(i, j, k);
          if (up.two && up.newest)
            u[o] = (u[o] + alpha_prev * p_next[o]) + alpha * p[o];
          else if (up.two)
            u[o] = u[o] + alpha_prev * p_next[o];
          else
            u[o] = u[o] + alpha * p[o];
        }
  if (finishing) return;
  const int w = periodic ? 0 : h.h;
  for (int k = 0; k < L.nz; ++k)
    for (int j = -w; j < L.ny + w; ++j)
      for (int i = -w; i < L.nx + w; ++i) {
        const bool x_in = i >= 0 && i < L.nx, y_in = j >= 0 && j < L.ny;
        if (!x_in && !y_in) continue;  // no corners
        const std::ptrdiff_t o = L.at(i, j, k);
        p_next[o] = first ? z[o] : z[o] + beta * p[o];
      }
  const DirectionGroups g = direction_groups(L);
  ItemReducer<1> red;
  for (int gz = 0; gz < g.z; ++gz)
    for (int gy = 0; gy < g.y; ++gy)
      for (int gx = 0; gx < g.x; ++gx) {
        std::vector<Sums<1>> items(kSumGroup);
        for (int k = gz * kDirectionLevels; k < std::min(L.nz, (gz + 1) * kDirectionLevels); ++k)
          for (int t = 0; t < kSumGroup; ++t) {
            const int i = gx * kDirectionBlockX + t % kDirectionBlockX,
                      j = gy * kDirectionBlockY + t / kDirectionBlockX;
            if (i >= L.nx || j >= L.ny) continue;
            const std::ptrdiff_t o = L.at(i, j, k);
            ap_next[o] = periodic ? apply_cell_from(L, h, coef, i, j, k, PeriodicAt(L, p_next, i, j, k))
                                  : apply_cell(L, h, coef, p_next, i, j, k);
            items[t].v[0] = dd_add(items[t].v[0], p_next[o] * ap_next[o]);
          }
        for (const auto& item : items) red.push(item);
      }
  red.finish(out);
}

}  // namespace line_reference

TEST(EllipticKernels, LineKernelsGiveTheCellFormBitForBit) {
  // Partial groups, several x-blocks, y-blocks and level chunks, a step over two blocks of rows
  // (23 and 7), a 3-wide tile (every cell near an x edge); both strides, every vertical rule,
  // periodic images and ghost rings; the first iteration, each pending u update and a finishing one.
  int cases = 0;
  for (const TileLayout& L : kRowShapes)
    for (const ColumnCouplings& h : kRowRules) {
      const auto c = coefficients(kArea, h, h.s, L.nz);
      auto field = [&](unsigned seed) { return two_magnitudes(L.size(), seed); };
      // iteration, done, breakdown: the first, an odd one (no update), an even one (both terms), a
      // finishing odd one (the newest term), one after a breakdown (the older term only)
      const double iters[][3] = {{0, 0, 0}, {3, 0, 0}, {4, 0, 0}, {5, 1, 0}, {6, 1, 1}};
      for (const auto& it : iters)
        for (const bool periodic : {false, true}) {
          auto st = state_with(0.37, 0.45, it[1]);
          st[state::kIter] = it[0];
          st[state::kBreakdown] = it[2];
          st[state::kAlphaPrev] = -0.29;
          const auto ap = field(50);
          auto r = field(51), z = field(52);
          if (periodic && it[0] == 3) r[L.at(L.nx / 2, L.ny / 2, L.nz / 2)] = std::nan("");  // max |r| over a NaN
          auto r2 = r, z2 = z;
          double out[2 * kMaxSums] = {}, out2[2 * kMaxSums] = {};
          if (it[1] < 1.0) {
            pcg_line_step_cpu(L, h, c.data(), st.data(), ap.data(), r.data(), z.data(), out);
            line_reference::step(L, h, c.data(), st.data(), ap.data(), r2.data(), z2.data(), out2);
            EXPECT_TRUE(bitwise_same(r, r2) && bitwise_same(z, z2))
                << "pcg_line_step fields, nx " << L.nx << " s " << h.s;
            EXPECT_EQ(std::memcmp(out, out2, sizeof(out)), 0) << "pcg_line_step sums, nx " << L.nx << " s " << h.s;
          }
          auto u = field(53), pn = field(54), apn = field(55);
          const auto p = field(56), zd = field(57);
          auto u2 = u, pn2 = pn, apn2 = apn;
          pcg_line_direction_cpu(L, h, c.data(), st.data(), u.data(), p.data(), zd.data(), pn.data(), apn.data(), out,
                                 periodic);
          line_reference::direction(L, h, c.data(), st.data(), u2.data(), p.data(), zd.data(), pn2.data(), apn2.data(),
                                    out2, periodic);
          EXPECT_TRUE(bitwise_same(u, u2) && bitwise_same(pn, pn2) && bitwise_same(apn, apn2))
              << "pcg_line_direction fields, nx " << L.nx << " s " << h.s << " periodic " << periodic;
          EXPECT_EQ(std::memcmp(out, out2, sizeof(out)), 0)
              << "pcg_line_direction sums, nx " << L.nx << " s " << h.s << " periodic " << periodic;
          if (it[1] < 1.0) EXPECT_FALSE(std::isnan(out[0]));
          ++cases;
        }
    }
  EXPECT_EQ(cases, 120);
}

// The former cell-by-cell form of pcg_fused_apply and pcg_start (one item per cell into
// ItemReducer): the row-wise CPU kernels must give its bits.
namespace fused_reference {

void start(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* u, const double* f,
           double* r, double* p, double* q) {
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const std::ptrdiff_t o = L.at(i, j, k);
        r[o] = axpby(1.0, f[o], -1.0, apply_cell(L, h, coef, u, i, j, k));
        p[o] = q[o] = axpby(0.0, f[o], 0.0, 0.0);
      }
}

void apply(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st, double* u, double* p,
           const double* z, double* q, double* out, bool z_periodic) {
  const double alpha = st[state::kAlpha], beta = st[state::kBeta];
  const bool finishing = st[state::kDone] >= 1.0;
  ItemReducer<1> red;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const std::ptrdiff_t o = L.at(i, j, k);
        u[o] = u[o] + alpha * p[o];
        if (finishing) continue;
        const double ps = z[o] + beta * p[o];
        p[o] = ps;
        const double az = z_periodic ? apply_cell_from(L, h, coef, i, j, k, PeriodicAt(L, z, i, j, k))
                                     : apply_cell(L, h, coef, z, i, j, k);
        const double qs = az + beta * q[o];
        q[o] = qs;
        Sums<1> s{};
        s.v[0] = dd_add(s.v[0], ps * qs);
        red.push(s);
      }
  red.finish(out);
}

}  // namespace fused_reference

TEST(EllipticKernels, PcgFusedGivesTheCellFormBitForBit) {
  int cases = 0;
  for (const TileLayout& L : kRowShapes)
    for (const ColumnCouplings& h : kRowRules) {
      const auto c = coefficients(kArea, h, h.s, L.nz);
      auto field = [&](unsigned seed) { return two_magnitudes(L.size(), seed); };
      {
        const auto u = field(70), f = field(71);
        auto r = field(72), p = field(73), q = field(74);
        auto r2 = r, p2 = p, q2 = q;
        pcg_start_cpu(L, h, c.data(), u.data(), f.data(), r.data(), p.data(), q.data());
        fused_reference::start(L, h, c.data(), u.data(), f.data(), r2.data(), p2.data(), q2.data());
        EXPECT_TRUE(bitwise_same(r, r2) && bitwise_same(p, p2) && bitwise_same(q, q2))
            << "pcg_start, nx " << L.nx << " s " << h.s;
      }
      for (const double done : {0.0, 1.0})
        for (const bool periodic : {false, true}) {
          const auto st = state_with(0.37, 0.45, done);
          auto u = field(75), p = field(76), q = field(77);
          const auto z = field(78);
          auto u2 = u, p2 = p, q2 = q;
          double out[2 * kMaxSums] = {}, out2[2 * kMaxSums] = {};
          pcg_fused_apply_cpu(L, h, c.data(), st.data(), u.data(), p.data(), z.data(), q.data(), out, periodic);
          fused_reference::apply(L, h, c.data(), st.data(), u2.data(), p2.data(), z.data(), q2.data(), out2, periodic);
          EXPECT_TRUE(bitwise_same(u, u2) && bitwise_same(p, p2) && bitwise_same(q, q2))
              << "pcg_fused_apply fields, nx " << L.nx << " s " << h.s << " periodic " << periodic;
          EXPECT_EQ(std::memcmp(out, out2, sizeof(out)), 0)
              << "pcg_fused_apply sums, nx " << L.nx << " s " << h.s << " periodic " << periodic;
          ++cases;
        }
    }
  EXPECT_EQ(cases, 48);
}

// dot_partial's cell-by-cell form (ChunkedCellReducer, one push per cell): the row-wise CPU kernels
// that take its sums (dot_partial, elliptic_residual_dot) must give its bits.
void dot_partial_reference(const TileLayout& L, const double* x, const double* y, const double* z, double* out) {
  ChunkedCellReducer<2> red;
  double x_max = 0.0;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const std::ptrdiff_t o = L.at(i, j, k);
        x_max = std::max(x_max, std::fabs(x[o]));
        red.push({x[o] * y[o], x[o] * z[o]});
      }
  red.finish(out);
  out[kMaxAbsAt] = x_max;
  out[kMaxAbsAt + 1] = 0.0;
}

TEST(EllipticKernels, DotPartialAndResidualDotGiveTheCellFormBitForBit) {
  // Partial chunk groups, rows that straddle groups, several groups.
  const TileLayout shapes[] = {kL, TileLayout{64, 32, 9, 2}, TileLayout{5, 3, 7, 2}};
  const ColumnCouplings h{0.7, 0.6, 0.5, 0.4, 2, 2, kWrapPeriodic};
  const auto st = state_with(0.0, 0.0);
  for (const TileLayout& L : shapes) {
    auto field = [&](unsigned seed) { return two_magnitudes(L.size(), seed); };
    const auto x = field(40), y = field(41), z = field(42);
    double out[2 * kMaxSums] = {}, ref[2 * kMaxSums] = {};
    dot_partial_cpu(L, st.data(), 2, x.data(), y.data(), z.data(), out);
    dot_partial_reference(L, x.data(), y.data(), z.data(), ref);
    EXPECT_EQ(std::memcmp(out, ref, sizeof(out)), 0) << "dot_partial, nx " << L.nx;

    const auto c = coefficients(kArea, h, h.s, L.nz);
    const auto u = field(43), f = field(44);
    std::vector<double> r(L.size(), 0.0), r_ref(L.size(), 0.0);
    elliptic_residual_dot_cpu(L, h, c.data(), st.data(), 2, u.data(), f.data(), r.data(), out);
    elliptic_apply_cpu(L, h, c.data(), st.data(), 2, u.data(), r_ref.data());
    vector_update_cpu(VectorUpdateArgs{L, 2, -1, -1, 1.0, -1.0}, st.data(), f.data(), r_ref.data());
    dot_partial_reference(L, r_ref.data(), r_ref.data(), r_ref.data(), ref);
    EXPECT_EQ(std::memcmp(r.data(), r_ref.data(), r.size() * sizeof(double)), 0)
        << "elliptic_residual_dot r, nx " << L.nx;
    EXPECT_EQ(std::memcmp(out, ref, sizeof(out)), 0) << "elliptic_residual_dot sums, nx " << L.nx;
  }
}

TEST(EllipticKernels, SkippedOnceTheSolverIsDone) {
  const auto c = coefficients(kArea, kH);
  const auto done = state_with(1.0, 1.0, 2.0);
  auto x = random_field(40), y = random_field(41);
  const auto y0 = y;
  elliptic_apply_cpu(kL, kH, c.data(), done.data(), 2, x.data(), y.data());
  line_precon_cpu(kL, c.data(), done.data(), 2, 1, x.data(), y.data());
  vector_update_cpu(VectorUpdateArgs{kL, 2, -1, -1, 2.0, 1.0}, done.data(), x.data(), y.data());
  EXPECT_EQ(y, y0);
}

TEST(EllipticKernels, SolverScalarsStopAtTheTolerance) {
  std::vector<double> st(state_doubles(50), 0.0);
  st[state::kKappa] = 1.0;
  st[state::kTolRel] = 1e-3;
  st[state::kMaxIter] = 50;
  double part[2 * kMaxSums] = {};
  const double* parts[1] = {part};
  ScalarsArgs a;
  a.tiles = 1;
  a.op = ScalarOp::PcgFusedPrecon;
  part[0] = 4.0;  // <r,r> = 4: ||r0|| = 2
  part[2] = 3.0;  // <r,z>
  solver_scalars_cpu(a, st.data(), parts);
  EXPECT_EQ(st[state::kRes0], 2.0);
  EXPECT_EQ(st[state::kDone], 0.0);
  a.op = ScalarOp::PcgFusedApply;
  part[0] = 6.0;  // <p,q>
  solver_scalars_cpu(a, st.data(), parts);
  EXPECT_EQ(st[state::kAlpha], 0.5);
  EXPECT_EQ(st[state::kIter], 1.0);
  a.op = ScalarOp::PcgFusedPrecon;
  part[0] = 1e-6;  // ||r|| = 1e-3 = tol_rel ||r0|| / 2: converged, finishing
  solver_scalars_cpu(a, st.data(), parts);
  EXPECT_EQ(st[state::kDone], 1.0);
  EXPECT_EQ(st[state::kConverged], 1.0);
  a.op = ScalarOp::PcgFusedApply;
  solver_scalars_cpu(a, st.data(), parts);
  EXPECT_EQ(st[state::kDone], 2.0);
  EXPECT_EQ(st[state::kIter], 1.0);
  EXPECT_EQ(st[state::kHistory + 1], 1e-3);
}

TEST(EllipticKernels, SolverScalarsStopOnTheMaxNorm) {
  // The dycore's test: max |r| <= tol_max, whatever ||r||; the largest tile's maximum counts.
  std::vector<double> st(state_doubles(50), 0.0);
  st[state::kKappa] = 1.0;
  st[state::kTolMax] = 0.5;
  st[state::kMaxIter] = 50;
  double a_part[2 * kMaxSums] = {}, b_part[2 * kMaxSums] = {};
  const double* parts[2] = {a_part, b_part};
  ScalarsArgs a;
  a.tiles = 2;
  a.op = ScalarOp::GcrResidual;
  a_part[0] = b_part[0] = 50.0;  // ||r|| = 10 (far above any 2-norm tolerance)
  a_part[kMaxAbsAt] = 0.4;
  b_part[kMaxAbsAt] = 0.6;  // one tile above tol_max: go on
  solver_scalars_cpu(a, st.data(), parts);
  EXPECT_EQ(st[state::kDone], 0.0);
  EXPECT_EQ(st[state::kResMax], 0.6);
  b_part[kMaxAbsAt] = 0.5;  // every tile at or below: converged
  solver_scalars_cpu(a, st.data(), parts);
  EXPECT_EQ(st[state::kDone], 2.0);
  EXPECT_EQ(st[state::kConverged], 1.0);
  EXPECT_EQ(st[state::kRes], 10.0);
}

TEST(EllipticKernels, SolverScalarsDirectRecordsTheStartAndTheCheck) {
  // The direct solve's check: each tile's residual_max partial holds max |f| (the start's residual)
  // and max |f - A u|; the state records their largest as the two norms, one iteration, done,
  // converged when the test passes.
  std::vector<double> st(state_doubles(50), 0.0);
  st[state::kTolMax] = 0.5;
  st[state::kMaxIter] = 50;
  double part[2][2 * kMaxSums] = {};
  part[0][kResidualMaxF] = 3.0;
  part[1][kResidualMaxF] = 5.0;
  part[0][kResidualMaxR] = 0.1;
  part[1][kResidualMaxR] = 0.7;  // above tol_max: not converged
  const double* parts[2] = {part[0], part[1]};
  ScalarsArgs a;
  a.op = ScalarOp::Direct;
  a.tiles = 2;
  EXPECT_EQ(partial_count(a), 2);
  solver_scalars_cpu(a, st.data(), parts);
  EXPECT_EQ(st[state::kIter], 1.0);
  EXPECT_EQ(st[state::kDone], 2.0);
  EXPECT_EQ(st[state::kConverged], 0.0);
  EXPECT_EQ(st[state::kHistory], 5.0);
  EXPECT_EQ(st[state::kHistory + 1], 0.7);
  EXPECT_EQ(st[state::kResMax], 0.7);
  part[1][kResidualMaxR] = 0.5;
  st.assign(st.size(), 0.0);
  st[state::kTolMax] = 0.5;
  st[state::kMaxIter] = 50;
  solver_scalars_cpu(a, st.data(), parts);
  EXPECT_EQ(st[state::kConverged], 1.0);
  // A non-finite right-hand side (residual_max gives +inf) never passes, not even the relative test.
  part[0][kResidualMaxF] = part[0][kResidualMaxR] = HUGE_VAL;
  st.assign(st.size(), 0.0);
  st[state::kTolRel] = 1e-10;
  st[state::kMaxIter] = 50;
  solver_scalars_cpu(a, st.data(), parts);
  EXPECT_EQ(st[state::kDone], 2.0);
  EXPECT_EQ(st[state::kConverged], 0.0);
}

TEST(EllipticKernels, ResidualMaxIsTheResidualsLargestMagnitude) {
  // max |f| and max |f - A u| of the residual codelet's r; a NaN anywhere reads as +inf.
  const auto c = coefficients(kArea, kH);
  const auto u = random_field(60);
  auto f = random_field(61), r = random_field(62);
  std::vector<double> sums(2 * kMaxSums), out(2);
  const auto st = state_with(0, 0);
  elliptic_residual_dot_cpu(kL, kH, c.data(), st.data(), 3, u.data(), f.data(), r.data(), sums.data());
  elliptic_residual_max_cpu(kL, kH, c.data(), u.data(), f.data(), out.data());
  EXPECT_EQ(out[kResidualMaxF], interior_max_abs(f));
  EXPECT_EQ(out[kResidualMaxR], interior_max_abs(r));
  f[kL.at(3, 2, 1)] = std::nan("");
  elliptic_residual_max_cpu(kL, kH, c.data(), u.data(), f.data(), out.data());
  EXPECT_EQ(out[kResidualMaxF], HUGE_VAL);
  EXPECT_EQ(out[kResidualMaxR], HUGE_VAL);
  // -0 counts as +0 (its bit pattern would outrank every value in the GPU's atomic maximum).
  EXPECT_FALSE(std::signbit(check_magnitude(-0.0)));
}

TEST(EllipticKernels, FixedOrderSumIsAccurate) {
  auto x = random_field(50, -1e3, 1e3), y = random_field(51);
  const auto st = state_with(0, 0);
  double out[2 * kMaxSums];
  dot_partial_cpu(kL, st.data(), 2, x.data(), y.data(), x.data(), out);
  const long double ref = dot_ld(x, y);
  EXPECT_NEAR(sum_of(out, 0), double(ref), 1e-15 * std::fabs(double(dot_ld(x, x))));
  EXPECT_EQ(out[kMaxAbsAt], interior_max_abs(x)) << "max |x|";
}

#if defined(TASKDYCORE_HAVE_CUDA)
using Dev = tdc_test::DeviceArray;
using tdc_test::have_device;

void expect_same(const std::vector<double>& a, const std::vector<double>& b, const char* what) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0) << what;
}
std::vector<double> out_of(const double* o) { return std::vector<double>(o, o + 2 * kMaxSums); }

TEST(EllipticCpuCudaAgreement, AllKernels) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device on this machine: run the agreement tests on the GPU machine";
  // The paper 002 operator (strides 1, zero flux) and the laplc form (strides 2, periodic in z).
  for (const ColumnCouplings& kH :
       {ColumnCouplings{1.1, 0.9, 1.3, 1.3, 1, 1, 0}, ColumnCouplings{0.7, 0.7, 0.5, 0.5, 2, 2, 1}}) {
    SCOPED_TRACE(kH.s);
    const auto c = coefficients(kArea, kH, kH.s);
    const auto st = state_with(0.37, 0.61);
    Dev dc(c), dst(st), dout(2 * kMaxSums, 0.0), scratch(1 << 20, 0.0);
    const std::size_t scratch_needed = std::max({dot_partial_scratch_bytes(kL), pcg_fused_scratch_bytes(kL),
                                                 pcg_line_scratch_bytes(kL), gcr_scratch_bytes(kL)});
    ASSERT_LE(scratch_needed, (1u << 20) * sizeof(double));
    double out[2 * kMaxSums];

    {  // elliptic_apply, line_precon, vector_update
      auto x = random_field(60), y = random_field(61);
      Dev dx(x), dy(y);
      elliptic_apply_cpu(kL, kH, c.data(), st.data(), 2, x.data(), y.data());
      elliptic_apply_cuda(kL, kH, dc.p, dst.p, 2, dx.p, dy.p, 0);
      expect_same(y, dy.host(), "elliptic_apply");
      line_precon_cpu(kL, c.data(), st.data(), 2, kH.s, x.data(), y.data());
      line_precon_cuda(kL, dc.p, dst.p, 2, kH.s, dx.p, dy.p, 0);
      expect_same(y, dy.host(), "line_precon");
      const VectorUpdateArgs va{kL, 2, state::kAlpha, state::kBeta, -1.0, 1.0};
      vector_update_cpu(va, st.data(), x.data(), y.data());
      vector_update_cuda(va, dst.p, dx.p, dy.p, 0);
      expect_same(y, dy.host(), "vector_update");
      {  // the fused residuals and their sums
        auto r = random_field(68);
        const auto f = random_field(69);
        Dev dr(r), df(f), dres(std::vector<double>(2 * kMaxSums, 0.0));
        std::vector<double> sums(2 * kMaxSums, 0.0);
        residual_update_dot_cpu(kL, st.data(), 2, state::kAlpha, x.data(), r.data(), sums.data());
        residual_update_dot_cuda(kL, dst.p, 2, state::kAlpha, dx.p, dr.p, scratch.p, dres.p, 0);
        expect_same(r, dr.host(), "residual_update_dot r");
        expect_same(sums, dres.host(), "residual_update_dot sums");
        elliptic_residual_dot_cpu(kL, kH, c.data(), st.data(), 3, x.data(), f.data(), r.data(), sums.data());
        elliptic_residual_dot_cuda(kL, kH, dc.p, dst.p, 3, dx.p, df.p, dr.p, scratch.p, dres.p, 0);
        expect_same(r, dr.host(), "elliptic_residual_dot r");
        expect_same(sums, dres.host(), "elliptic_residual_dot sums");
        std::vector<double> m(2, 0.0);
        Dev dm(std::vector<double>(2, 7.0));
        elliptic_residual_max_cpu(kL, kH, c.data(), x.data(), f.data(), m.data());
        elliptic_residual_max_cuda(kL, kH, dc.p, dx.p, df.p, dm.p, 0);
        expect_same(m, dm.host(), "elliptic_residual_max");
        EXPECT_GT(m[kResidualMaxR], 0.0);
      }
      std::fill(out, out + 2 * kMaxSums, 0.0);
      Dev dz(std::vector<double>(2 * kMaxSums, 0.0));
      dot_partial_cpu(kL, st.data(), 2, x.data(), y.data(), x.data(), out);
      dot_partial_cuda(kL, dst.p, 2, dx.p, dy.p, dx.p, scratch.p, dz.p, 0);
      EXPECT_EQ(std::memcmp(out, dz.host().data(), 4 * sizeof(double)), 0) << "dot_partial";
      EXPECT_EQ(out[kMaxAbsAt], dz.host()[kMaxAbsAt]) << "dot_partial max |x|";
      // A skipped reduction (the solve is done) leaves its sums alone, the one-block finish included.
      auto done = st;
      done[state::kDone] = 2.0;
      Dev ddone(done), dk(std::vector<double>(2 * kMaxSums, 7.0));
      dot_partial_cuda(kL, ddone.p, 2, dx.p, dy.p, dx.p, scratch.p, dk.p, 0);
      for (int q = 0; q < 4; ++q) EXPECT_EQ(dk.host()[q], 7.0) << "skipped dot_partial wrote sum " << q;
      // The vector update replays the graph recorded above behind a gate on the state: skipped once the
      // state says done, then run again with new contents of x.
      const auto y_before = dy.host();
      cudaMemcpy(dst.p, done.data(), done.size() * sizeof(double), cudaMemcpyHostToDevice);
      vector_update_cuda(va, dst.p, dx.p, dy.p, 0);
      expect_same(y_before, dy.host(), "vector_update once the solve is done");
      cudaMemcpy(dst.p, st.data(), st.size() * sizeof(double), cudaMemcpyHostToDevice);
      x = random_field(67);
      cudaMemcpy(dx.p, x.data(), x.size() * sizeof(double), cudaMemcpyHostToDevice);
      vector_update_cpu(va, st.data(), x.data(), y.data());
      vector_update_cuda(va, dst.p, dx.p, dy.p, 0);
      expect_same(y, dy.host(), "vector_update replayed on new data");
    }
    {  // pcg_fused
      auto r = random_field(62), q = random_field(63), z = random_field(64), u = random_field(65), p = random_field(66);
      Dev dr(r), dq(q), dz(z), du(u), dp(p), o(2 * kMaxSums, 0.0);
      pcg_fused_apply_cpu(kL, kH, c.data(), st.data(), u.data(), p.data(), z.data(), q.data(), out);
      pcg_fused_apply_cuda(kL, kH, dc.p, dst.p, du.p, dp.p, dz.p, dq.p, scratch.p, o.p, 0);
      expect_same(u, du.host(), "pcg_fused_apply u");
      expect_same(p, dp.host(), "pcg_fused_apply p");
      expect_same(q, dq.host(), "pcg_fused_apply q");
      EXPECT_EQ(std::memcmp(out, o.host().data(), 2 * sizeof(double)), 0) << "pcg_fused_apply sum";
      // z read at its periodic images, its ghost ring poisoned.
      const auto zn = with_ghosts(z, false);
      cudaMemcpy(dz.p, zn.data(), zn.size() * sizeof(double), cudaMemcpyHostToDevice);
      pcg_fused_apply_cpu(kL, kH, c.data(), st.data(), u.data(), p.data(), zn.data(), q.data(), out, true);
      pcg_fused_apply_cuda(kL, kH, dc.p, dst.p, du.p, dp.p, dz.p, dq.p, scratch.p, o.p, 0, true);
      expect_same(u, du.host(), "pcg_fused_apply (z periodic) u");
      expect_same(p, dp.host(), "pcg_fused_apply (z periodic) p");
      expect_same(q, dq.host(), "pcg_fused_apply (z periodic) q");
      EXPECT_EQ(std::memcmp(out, o.host().data(), 2 * sizeof(double)), 0) << "pcg_fused_apply (z periodic) sum";
      // The line form's two kernels, periodic or through the ghost rings, in a first and two later
      // iterations (u's update deferred at the odd one; both pending terms at the even one, the older
      // direction read from p' 's buffer).
      for (const double iter : {0.0, 4.0, 5.0})
        for (const bool periodic : {false, true}) {
          SCOPED_TRACE(testing::Message() << "iteration " << iter << (periodic ? " periodic" : " ghosts"));
          auto sl = st;
          sl[state::kIter] = iter;
          sl[state::kAlphaPrev] = 0.23;
          Dev dsl(sl);
          auto lu = random_field(90), lp = random_field(91), lr = random_field(92), lz = random_field(93),
               la = random_field(94), ln = random_field(95);
          Dev dlu(lu), dlp(lp), dlr(lr), dlz(lz), dla(la), dln(ln), lo(2 * kMaxSums, 0.0);
          std::fill(out, out + 2 * kMaxSums, 0.0);
          pcg_line_step_cpu(kL, kH, c.data(), sl.data(), la.data(), lr.data(), lz.data(), out);
          pcg_line_step_cuda(kL, kH, dc.p, dsl.p, dla.p, dlr.p, dlz.p, scratch.p, lo.p, 0);
          expect_same(lr, dlr.host(), "pcg_line_step r");
          expect_bitwise_interior(lz, dlz.host(), "pcg_line_step z");
          EXPECT_EQ(std::memcmp(out, lo.host().data(), 4 * sizeof(double)), 0) << "pcg_line_step sums";
          EXPECT_EQ(out[kMaxAbsAt], lo.host()[kMaxAbsAt]) << "pcg_line_step max |r|";
          pcg_line_direction_cpu(kL, kH, c.data(), sl.data(), lu.data(), lp.data(), lz.data(), ln.data(), la.data(),
                                 out, periodic);
          cudaMemcpy(dlz.p, lz.data(), lz.size() * sizeof(double), cudaMemcpyHostToDevice);  // z's ghosts as the CPU's
          pcg_line_direction_cuda(kL, kH, dc.p, dsl.p, dlu.p, dlp.p, dlz.p, dln.p, dla.p, scratch.p, lo.p, periodic, 0);
          expect_same(lu, dlu.host(), "pcg_line_direction u");
          expect_same(ln, dln.host(), "pcg_line_direction p' (interior and ring edges)");
          expect_same(la, dla.host(), "pcg_line_direction A p'");
          EXPECT_EQ(std::memcmp(out, lo.host().data(), 2 * sizeof(double)), 0) << "pcg_line_direction sum";
          // Finishing: the pending u update only (the sums are left as they were).
          sl[state::kDone] = 1.0;
          cudaMemcpy(dsl.p, sl.data(), sl.size() * sizeof(double), cudaMemcpyHostToDevice);
          pcg_line_direction_cpu(kL, kH, c.data(), sl.data(), lu.data(), lp.data(), lz.data(), ln.data(), la.data(),
                                 out, periodic);
          pcg_line_direction_cuda(kL, kH, dc.p, dsl.p, dlu.p, dlp.p, dlz.p, dln.p, dla.p, scratch.p, lo.p, periodic, 0);
          expect_same(lu, dlu.host(), "pcg_line_direction u (finishing)");
          expect_same(la, dla.host(), "pcg_line_direction A p' untouched (finishing)");
          expect_same(ln, dln.host(), "pcg_line_direction p' untouched (finishing)");
          EXPECT_EQ(std::memcmp(out, lo.host().data(), 2 * sizeof(double)), 0) << "pcg_line_direction sum (finishing)";
        }
      // The start of a solve: r = f - A u, p = q = 0 f (u's ghost ring as it is: valid data).
      std::vector<double> rs(kL.size(), 0.0);
      Dev drs(rs);
      pcg_start_cpu(kL, kH, c.data(), u.data(), r.data(), rs.data(), p.data(), q.data());
      pcg_start_cuda(kL, kH, dc.p, du.p, dr.p, drs.p, dp.p, dq.p, 0);
      expect_same(rs, drs.host(), "pcg_start r");
      expect_same(p, dp.host(), "pcg_start p");
      expect_same(q, dq.host(), "pcg_start q");
    }
    {  // gcr_step
      auto x = random_field(70), r = random_field(71), pl = random_field(72), ql = random_field(73),
           e = random_field(74);
      Dev dx(x), dr(r), dpl(pl), dql(ql), de(e), o(2 * kMaxSums, 0.0), dae(kL.size(), 0.0), dpn(kL.size(), 0.0);
      gcr_precon_cpu(kL, c.data(), st.data(), kH.s, x.data(), r.data(), pl.data(), ql.data(), e.data(), out);
      gcr_precon_cuda(kL, dc.p, dst.p, kH.s, dx.p, dr.p, dpl.p, dql.p, de.p, scratch.p, o.p, 0);
      expect_same(x, dx.host(), "gcr_precon x");
      expect_same(r, dr.host(), "gcr_precon r");
      expect_same(e, de.host(), "gcr_precon e");
      EXPECT_EQ(std::memcmp(out, o.host().data(), 2 * sizeof(double)), 0) << "gcr_precon sum";
      EXPECT_EQ(out[kMaxAbsAt], o.host()[kMaxAbsAt]) << "gcr_precon max |r|";
      std::vector<std::vector<double>> bp, bq;
      std::vector<std::unique_ptr<Dev>> dbp, dbq;
      GcrBasis hb, db;
      hb.m = db.m = kMaxGcrOld;
      for (int n = 0; n < kMaxGcrOld; ++n) {
        bp.push_back(random_field(80 + n));
        bq.push_back(random_field(90 + n));
        dbp.emplace_back(new Dev(bp.back()));
        dbq.emplace_back(new Dev(bq.back()));
        hb.p[n] = bp[n].data();
        hb.q[n] = bq[n].data();
        db.p[n] = dbp[n]->p;
        db.q[n] = dbq[n]->p;
      }
      std::vector<double> ae(kL.size(), 0.0), pn(kL.size(), 0.0);
      gcr_apply_cpu(kL, kH, c.data(), st.data(), e.data(), ae.data(), hb, out);
      gcr_apply_cuda(kL, kH, dc.p, dst.p, de.p, dae.p, db, scratch.p, o.p, 0);
      expect_same(ae, dae.host(), "gcr_apply A e");
      EXPECT_EQ(std::memcmp(out, o.host().data(), 2 * kMaxGcrOld * sizeof(double)), 0) << "gcr_apply sums";
      gcr_direction_cpu(kL, st.data(), e.data(), r.data(), pn.data(), ae.data(), hb, out);
      gcr_direction_cuda(kL, dst.p, de.p, dr.p, dpn.p, dae.p, db, scratch.p, o.p, 0);
      expect_same(pn, dpn.host(), "gcr_direction p");
      expect_same(ae, dae.host(), "gcr_direction q");
      EXPECT_EQ(std::memcmp(out, o.host().data(), 4 * sizeof(double)), 0) << "gcr_direction sums";
    }
    {  // solver_scalars: every op from the same partials, CPU and CUDA state identical
      std::vector<double> part0 = random_field(100), part1 = random_field(101);
      part0.resize(2 * kMaxSums);
      part1.resize(2 * kMaxSums);
      for (double& v : part0) v = std::fabs(v);
      for (double& v : part1) v = std::fabs(v) * 1e-17;
      Dev p0(part0), p1(part1);
      const double* hp[2] = {part0.data(), part1.data()};
      const double* dp[2] = {p0.p, p1.p};
      auto hs = st;
      hs[state::kTolRel] = 1e-30;
      hs[state::kMaxIter] = 10;
      hs[state::kKappa] = 0.3;
      for (int s = 0; s < kMaxGcrDirections; ++s) hs[state::kGcrQQ + s] = 0.5 + s;
      Dev ds(hs);
      for (ScalarOp op :
           {ScalarOp::PcgFusedPrecon, ScalarOp::PcgFusedApply, ScalarOp::PcgLineApply, ScalarOp::PcgInit,
            ScalarOp::PcgSigma, ScalarOp::PcgResidual, ScalarOp::GcrResidual, ScalarOp::GcrAlphas, ScalarOp::GcrBeta}) {
        ScalarsArgs a;
        a.op = op;
        a.tiles = 2;
        a.sums = 3;
        a.slots[0] = 2;
        a.slots[1] = 0;
        a.slots[2] = 1;
        a.new_slot = 3;
        solver_scalars_cpu(a, hs.data(), hp);
        solver_scalars_cuda(a, ds.p, dp, 0);
        expect_same(hs, ds.host(), "solver_scalars");
      }
      ScalarsArgs direct;  // one tile: its partials before (part0) and after (part1) the correction
      direct.op = ScalarOp::Direct;
      direct.tiles = 1;
      auto hd = st;  // a fresh state (the ops above may have finished the first)
      hd[state::kTolRel] = 1e-30;
      hd[state::kMaxIter] = 10;
      Dev dd(hd);
      solver_scalars_cpu(direct, hd.data(), hp);
      solver_scalars_cuda(direct, dd.p, dp, 0);
      expect_same(hd, dd.host(), "solver_scalars (direct)");
    }
  }
}

// The GPU kernels take a column's levels in batches and chunks (the step's copies ahead, the direction
// step's marching chunks): a tile with several of each (the last ones partial) and partial blocks of
// columns, for each vertical boundary rule.
TEST(EllipticCpuCudaAgreement, LineKernelsOverSeveralLevelChunks) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device on this machine: run the agreement tests on the GPU machine";
  const TileLayout L{45, 19, 2 * kDirectionLevels + 6, 2};
  for (const ColumnCouplings& h :
       {ColumnCouplings{1.1, 0.9, 1.3, 1.3, 1, 1, kZeroFlux}, ColumnCouplings{0.7, 0.7, 0.5, 0.5, 2, 2, kWrapPeriodic},
        ColumnCouplings{0.7, 0.6, 0.5, 0.4, 2, 2, kWrapMirror}})
    for (const bool periodic : {false, true}) {
      SCOPED_TRACE(testing::Message() << "strides " << h.s << " z rule " << h.z_wrap
                                      << (periodic ? " periodic" : " ghosts"));
      const auto c = coefficients(kArea, h, h.s, L.nz);
      auto st = state_with(0.37, 0.61);
      st[state::kIter] = 6.0;  // u's deferred update with both pending terms
      st[state::kAlphaPrev] = 0.23;
      auto u = tdc_test::random_values(L.size(), 95, -1.0, 1.0), p = tdc_test::random_values(L.size(), 96, -1.0, 1.0),
           z = tdc_test::random_values(L.size(), 97, -1.0, 1.0);
      auto pn = tdc_test::random_values(L.size(), 94, -1.0, 1.0);  // the direction before p
      std::vector<double> apn(L.size(), 0.0);
      Dev dc(c), dst(st), du(u), dp(p), dz(z), dpn(pn), dapn(apn),
          scratch(pcg_line_scratch_bytes(L) / sizeof(double) + 1, 0.0), dout(2 * kMaxSums, 0.0);
      double out[2 * kMaxSums] = {};
      if (!periodic) {  // the step (no horizontal neighbours)
        auto r = tdc_test::random_values(L.size(), 98, -1.0, 1.0), zs = z;
        const auto ap = tdc_test::random_values(L.size(), 99, -1.0, 1.0);
        Dev dr(r), dzs(zs), dap(ap);
        pcg_line_step_cpu(L, h, c.data(), st.data(), ap.data(), r.data(), zs.data(), out);
        pcg_line_step_cuda(L, h, dc.p, dst.p, dap.p, dr.p, dzs.p, scratch.p, dout.p, 0);
        expect_same(r, dr.host(), "step r");
        const auto zg = dzs.host();
        int differ = 0;
        for (int k = 0; k < L.nz; ++k)
          for (int j = 0; j < L.ny; ++j)
            for (int i = 0; i < L.nx; ++i)
              differ += std::memcmp(&zs[L.at(i, j, k)], &zg[L.at(i, j, k)], sizeof(double)) != 0;
        EXPECT_EQ(differ, 0) << "step z";
        const auto og = dout.host();
        EXPECT_EQ(std::memcmp(out, og.data(), 4 * sizeof(double)), 0) << "step sums";
        EXPECT_EQ(out[kMaxAbsAt], og[kMaxAbsAt]) << "step max |r|";
      }
      pcg_line_direction_cpu(L, h, c.data(), st.data(), u.data(), p.data(), z.data(), pn.data(), apn.data(), out,
                             periodic);
      pcg_line_direction_cuda(L, h, dc.p, dst.p, du.p, dp.p, dz.p, dpn.p, dapn.p, scratch.p, dout.p, periodic, 0);
      expect_same(u, du.host(), "u");
      expect_same(pn, dpn.host(), "p' (interior and ring edges)");
      expect_same(apn, dapn.host(), "A p'");
      EXPECT_EQ(std::memcmp(out, dout.host().data(), 2 * sizeof(double)), 0) << "<p', A p'>";
    }
}
// A single tile's batches of iterations as one graph each, looping on the device until the state says
// done (the finishing kernels fold the scalars steps into the state): the CPU's iterations one by one,
// bit for bit, through a solve's first iteration, its last (out of iterations in the third batch, at an
// even and an odd iteration), the finishing u update, and a batch submitted past the end (no round runs;
// its tail iteration skips).
TEST(EllipticCpuCudaAgreement, LineIterationsAsOneGraph) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device on this machine: run the agreement tests on the GPU machine";
  const TileLayout L{70, 24, kDirectionLevels + 9, 2};
  const ColumnCouplings h{1.1, 0.9, 1.3, 1.2, 1, 1, kZeroFlux};
  const auto c = coefficients(kArea, h, h.s, L.nz);
  for (const int max_iter : {14, 15}) {  // the solve finishes at an even and at an odd iteration
    SCOPED_TRACE(testing::Message() << "max_iter " << max_iter);
    std::vector<double> st(state_doubles(max_iter), 0.0);
    ScalarsArgs reset;
    reset.op = ScalarOp::Reset;
    reset.tol_rel = 1e-30;
    reset.max_iter = max_iter;
    reset.state_size = int(st.size());
    solver_scalars_cpu(reset, st.data(), nullptr);
    ScalarsArgs after_step, after_direction;
    after_step.op = ScalarOp::PcgFusedPrecon;
    after_step.tiles = 1;
    after_step.sums = 2;
    after_direction.op = ScalarOp::PcgFusedApply;
    after_direction.tiles = 1;
    after_direction.sums = 1;
    auto u = tdc_test::random_values(L.size(), 41, -1.0, 1.0), r = tdc_test::random_values(L.size(), 42, -1.0, 1.0);
    std::vector<double> d0(L.size(), 0.0), d1(L.size(), 0.0), ap(L.size(), 0.0), z(L.size(), 0.0);
    Dev dc(c), dst(st), du(u), dd0(d0), dd1(d1), dap(ap), dr(r), dz(z),
        scratch(pcg_line_scratch_bytes(L) / sizeof(double) + 1, 0.0), dout(2 * kMaxSums, 0.0);
    double out[2 * kMaxSums] = {};
    double* dir[2] = {d0.data(), d1.data()};
    double* const ddir[2] = {dd0.p, dd1.p};
    int done_iterations = 0;
    // Parities 0, 1, 1, 1; odd counts end after the device loop; the third batch replays the second's
    // graph with more rounds; the fourth is past the end.
    for (const int count : {7, 4, 6, 3}) {
      const int parity = done_iterations % 2;
      for (int m = 0; m < count; ++m) {
        double *p = dir[(parity + m) % 2], *p_next = dir[(parity + m + 1) % 2];
        pcg_line_step_cpu(L, h, c.data(), st.data(), ap.data(), r.data(), z.data(), out);
        fold_scalars_cpu(after_step, st.data(), out);
        pcg_line_direction_cpu(L, h, c.data(), st.data(), u.data(), p, z.data(), p_next, ap.data(), out, true);
        fold_scalars_cpu(after_direction, st.data(), out);
      }
      pcg_line_iterations_cuda(L, h, dc.p, dst.p, du.p, ddir, dap.p, dr.p, dz.p, scratch.p, dout.p, after_step,
                               after_direction, parity, count, 0);
      done_iterations += count;
      SCOPED_TRACE(testing::Message() << "after " << done_iterations << " iterations");
      expect_same(st, dst.host(), "state");
      auto interior_same = [&](const std::vector<double>& a, const std::vector<double>& b, const char* what) {
        int differ = 0;
        for (int k = 0; k < L.nz; ++k)
          for (int j = 0; j < L.ny; ++j)
            for (int i = 0; i < L.nx; ++i)
              differ += std::memcmp(&a[L.at(i, j, k)], &b[L.at(i, j, k)], sizeof(double)) != 0;
        EXPECT_EQ(differ, 0) << what;
      };
      interior_same(u, du.host(), "u");
      interior_same(r, dr.host(), "r");
      interior_same(z, dz.host(), "z");
      interior_same(d0, dd0.host(), "direction 0");
      interior_same(d1, dd1.host(), "direction 1");
      interior_same(ap, dap.host(), "A p");
    }
    EXPECT_EQ(st[state::kDone], 2.0);
    EXPECT_EQ(st[state::kIter], double(max_iter));
  }
}
#else
TEST(EllipticCpuCudaAgreement, AllKernels) { GTEST_SKIP() << "built without CUDA (no nvcc): run on a CUDA build"; }
TEST(EllipticCpuCudaAgreement, LineKernelsOverSeveralLevelChunks) {
  GTEST_SKIP() << "built without CUDA (no nvcc): run on a CUDA build";
}
TEST(EllipticCpuCudaAgreement, LineIterationsAsOneGraph) {
  GTEST_SKIP() << "built without CUDA (no nvcc): run on a CUDA build";
}
#endif

}  // namespace
