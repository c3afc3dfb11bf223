// EULAG's laplc (the collocated, centred-difference Laplacian with stride-2 couplings) through the
// Krylov solvers: a manufactured periodic Poisson problem converges at second order, the centred
// gradient of the solution is independent of the operator's null space, and the iteration history is
// bitwise the same for any tile layout.
#include <gtest/gtest.h>

#include <cmath>

#include "graph/elliptic_solver.hpp"
#include "src/collocated_laplacian.hpp"
#include "tests/model/model_fixture.hpp"

namespace {

struct PoissonResult {
  tdc::SolveResult solve;
  double error_l2 = 0;  // relative, after removing the null-space components (constant, checkerboards)
  std::vector<double> p;
};

// -L p = f on the unit cube, p* = sin(2 pi x) cos(4 pi y) sin(2 pi z) + 0.5 cos(2 pi x) sin(2 pi z).
PoissonResult solve_poisson(int n, int tx, int ty, tdc::KrylovMethod m) {
  tdc::Runtime& rt = *tdc_test::g_runtime;
  const tdc::Grid g{n, n, n, 1.0, 1.0, 1.0};
  const tdc::Decomposition d(g, tx, ty, 2, rt.size());
  const tdc::CollocatedLaplacian op = tdc::collocated_laplacian(g);
  const double k1 = 2 * M_PI, k2 = 4 * M_PI;
  auto exact = [&](int i, int j, int k) {
    const double x = (i + 0.5) / n, y = (j + 0.5) / n, z = (k + 0.5) / n;
    return std::sin(k1 * x) * std::cos(k2 * y) * std::sin(k1 * z) + 0.5 * std::cos(k1 * x) * std::sin(k1 * z);
  };
  auto rhs = [&](int i, int j, int k) {  // -Lap p*
    const double x = (i + 0.5) / n, y = (j + 0.5) / n, z = (k + 0.5) / n;
    return (2 * k1 * k1 + k2 * k2) * std::sin(k1 * x) * std::cos(k2 * y) * std::sin(k1 * z) +
           2 * k1 * k1 * 0.5 * std::cos(k1 * x) * std::sin(k1 * z);
  };
  tdc::TiledField u("p", d, rt.rank()), f("f", d, rt.rank());
  const tdc::TileLayout& L = d.layout();
  for (int t = 0; t < d.tiles(); ++t)
    if (f.owned(t))
      for (int k = 0; k < L.nz; ++k)
        for (int j = 0; j < L.ny; ++j)
          for (int i = 0; i < L.nx; ++i) f.host(t)[L.at(i, j, k)] = rhs(d.origin_x(t) + i, d.origin_y(t) + j, k);
  tdc::KrylovSettings s;
  s.method = m;
  s.tol_rel = 1e-10;
  tdc::EllipticSolver solver(d, rt.rank(), op.couplings, op.level_coefficients, s);
  PoissonResult r;
  r.solve = solver.solve(u, f);
  tdc::gather_field(d, u, rt.rank(), r.p);
  std::vector<double> e(r.p.size());
  std::size_t q = 0;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i, ++q) e[q] = r.p[q] - exact(i, j, k);
  for (int pattern = 0; pattern < 8; ++pattern) {  // remove the null space: (-1)^(a i + b j + c k)
    auto w = [&](int i, int j, int k) {
      return ((pattern & 1 ? i : 0) + (pattern & 2 ? j : 0) + (pattern & 4 ? k : 0)) % 2 ? -1.0 : 1.0;
    };
    double c = 0;
    q = 0;
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i, ++q) c += e[q] * w(i, j, k);
    c /= double(e.size());
    q = 0;
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i, ++q) e[q] -= c * w(i, j, k);
  }
  double e2 = 0, x2 = 0;
  q = 0;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i, ++q) {
        e2 += e[q] * e[q];
        x2 += exact(i, j, k) * exact(i, j, k);
      }
  r.error_l2 = std::sqrt(e2 / x2);
  return r;
}

TEST(Laplc, PeriodicPoissonConvergesAtSecondOrder) {
  const auto a = solve_poisson(16, 1, 1, tdc::KrylovMethod::Pcg);
  const auto b = solve_poisson(32, 1, 1, tdc::KrylovMethod::Pcg);
  EXPECT_TRUE(a.solve.converged);
  EXPECT_TRUE(b.solve.converged);
  const double order = std::log2(a.error_l2 / b.error_l2);
  std::printf("laplc Poisson: error %.4g (16^3, %d its) %.4g (32^3, %d its), order %.3f\n", a.error_l2,
              a.solve.iterations, b.error_l2, b.solve.iterations, order);
  EXPECT_NEAR(order, 2.0, 0.1);
}

TEST(Laplc, GcrAgreesAndHistoriesAreBitwiseIndependentOfTiles) {
  const auto gcr = solve_poisson(16, 1, 1, tdc::KrylovMethod::Gcr);
  const auto pcg = solve_poisson(16, 1, 1, tdc::KrylovMethod::Pcg);
  EXPECT_TRUE(gcr.solve.converged);
  EXPECT_NEAR(gcr.error_l2, pcg.error_l2, 1e-6);
  for (tdc::KrylovMethod m : {tdc::KrylovMethod::Pcg, tdc::KrylovMethod::Gcr}) {
    const auto ref = solve_poisson(16, 1, 1, m);
    const auto tiled = solve_poisson(16, 4, 2, m);
    EXPECT_EQ(tiled.solve.residual_history, ref.solve.residual_history);
    EXPECT_EQ(tiled.p, ref.p);
  }
}

}  // namespace
