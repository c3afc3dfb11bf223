// EULAG's laplc (the collocated, centred-difference Laplacian with stride-2 couplings) through the
// Krylov solvers: a manufactured periodic Poisson problem converges at second order, the centred
// gradient of the solution is independent of the operator's null space, and the iteration history is
// bitwise the same for any tile layout.
#include <gtest/gtest.h>

#include <cmath>

#include "codelets/solver_scalars/solver_state.hpp"
#include "graph/elliptic_solver.hpp"
#include "graph/collocated_laplacian.hpp"
#include "tests/model/model_fixture.hpp"

namespace {

struct PoissonResult {
  tdc::SolveResult solve;
  double error_l2 = 0;  // relative, after removing the null-space components (constant, checkerboards)
  std::vector<double> p;
};

// -L p = f on the unit cube, p* = sin(2 pi x) cos(4 pi y) sin(2 pi z) + 0.5 cos(2 pi x) sin(2 pi z).
PoissonResult solve_poisson(int n, int tx, int ty, tdc::KrylovMethod m,
                            tdc::Preconditioner pre = tdc::Preconditioner::Line, bool mg_one_task = true,
                            bool fused = true) {
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
  s.preconditioner = pre;
  s.multigrid.levels = tdc::multigrid_auto_levels(g);
  s.multigrid.one_task = mg_one_task;
  s.fused = fused;
  const auto levels = pre == tdc::Preconditioner::Multigrid
                          ? tdc::collocated_laplacian_levels(g, tdc::ZBoundary::Periodic, s.multigrid.levels)
                          : std::vector<tdc::OperatorLevel>{};
  tdc::EllipticSolver solver(d, rt.rank(), op.couplings, op.level_coefficients, s, levels);
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

constexpr auto kMg = tdc::Preconditioner::Multigrid;

TEST(LaplcMultigrid, SameSolutionFarFewerIterationsSlowerGrowth) {
  // Line-preconditioned PCG needs iterations in proportion to n on the isotropic laplc; the V-cycle
  // (piecewise-constant prolongation) grows much more slowly, though not flat: 7, 14, 19 when written.
  const auto line32 = solve_poisson(32, 1, 1, tdc::KrylovMethod::Pcg);
  const auto line64 = solve_poisson(64, 1, 1, tdc::KrylovMethod::Pcg);
  int its[3];
  int n = 16;
  for (int& it : its) {
    const auto mg = solve_poisson(n, 1, 1, tdc::KrylovMethod::Pcg, kMg);
    EXPECT_TRUE(mg.solve.converged) << n;
    it = mg.solve.iterations;
    if (n == 64) EXPECT_NEAR(mg.error_l2, line64.error_l2, 1e-8) << "the same discrete solution";
    n *= 2;
  }
  std::printf(
      "laplc to 1e-10: line-preconditioned PCG %d, %d iterations at 32^3, 64^3; multigrid PCG %d, %d, %d at "
      "16^3, 32^3, 64^3\n",
      line32.solve.iterations, line64.solve.iterations, its[0], its[1], its[2]);
  EXPECT_LT(3 * its[2], line64.solve.iterations);
  EXPECT_LT(double(its[2]) / its[1], 0.75 * line64.solve.iterations / line32.solve.iterations);
}

TEST(LaplcMultigrid, HistoryIsBitwiseIndependentOfTiles) {
  const auto ref = solve_poisson(32, 1, 1, tdc::KrylovMethod::Pcg, kMg);
  const auto tiled = solve_poisson(32, 4, 2, tdc::KrylovMethod::Pcg, kMg);
  EXPECT_TRUE(ref.solve.converged);
  EXPECT_EQ(tiled.solve.residual_history, ref.solve.residual_history);
  EXPECT_EQ(tiled.p, ref.p);
}

// A single tile's V-cycle runs as one mg_vcycle task (kernels back to back, halo_self copies) unless
// told otherwise; it must give the task graph's bits.
TEST(LaplcMultigrid, FusedIterationIsTheTextbookPcg) {
  // The fused form (r update, V-cycle, one pass for <r,r> and <r,z>, then Alg. 2's update of u, p and
  // q = A z + beta q) is PCG rearranged: the same iterations and solution up to rounding.
  for (bool one_task : {true, false}) {
    const auto fused = solve_poisson(32, 1, 1, tdc::KrylovMethod::Pcg, kMg, one_task, true);
    const auto plain = solve_poisson(32, 1, 1, tdc::KrylovMethod::Pcg, kMg, one_task, false);
    ASSERT_TRUE(fused.solve.converged && plain.solve.converged);
    EXPECT_EQ(fused.solve.iterations, plain.solve.iterations);
    ASSERT_EQ(fused.solve.residual_history.size(), plain.solve.residual_history.size());
    for (std::size_t n = 0; n < plain.solve.residual_history.size(); ++n)
      EXPECT_NEAR(fused.solve.residual_history[n] / plain.solve.residual_history[n], 1.0, 1e-5) << n;
    EXPECT_NEAR(fused.error_l2, plain.error_l2, 1e-9);
    double diff = 0;
    for (std::size_t q = 0; q < plain.p.size(); ++q) diff = std::max(diff, std::fabs(fused.p[q] - plain.p[q]));
    EXPECT_LT(diff, 1e-8);
    EXPECT_NE(fused.p, plain.p) << "the two forms round differently; equal bits would mean one ran twice";
  }
}

TEST(LaplcMultigrid, OneTaskCycleIsBitwiseTheTaskGraph) {
  const auto one = solve_poisson(32, 1, 1, tdc::KrylovMethod::Pcg, kMg, true);
  const auto graph = solve_poisson(32, 1, 1, tdc::KrylovMethod::Pcg, kMg, false);
  EXPECT_TRUE(one.solve.converged);
  EXPECT_GT(one.solve.iterations, 3);
  EXPECT_EQ(one.solve.residual_history, graph.solve.residual_history);
  EXPECT_EQ(one.p, graph.p);
}

// On several tiles the small coarse levels run as one cycle on one tile (gathered from the tiles and
// scattered back): the same bits as keeping every level on the tiles.
TEST(LaplcMultigrid, CoarseLevelsOnOneTileGiveTheTiledBits) {
  tdc::Runtime& rt = *tdc_test::g_runtime;
  for (tdc::ZBoundary zb : {tdc::ZBoundary::Periodic, tdc::ZBoundary::Rigid}) {
    const tdc::Grid g{64, 64, 32, 1.0, 1.0, 0.5};
    const tdc::Decomposition d(g, 2, 4, 2, rt.size());
    const auto levels = tdc::collocated_laplacian_levels(g, zb, tdc::multigrid_auto_levels(g));
    ASSERT_EQ(levels.size(), 3u);  // 64 x 64 x 32, 32 x 32 x 16, 16 x 16 x 8
    tdc::MultigridSettings whole, tiled;
    tiled.whole_cells = 0;
    tdc::MultigridPreconditioner a(d, rt.rank(), levels, whole), b(d, rt.rank(), levels, tiled);
    EXPECT_EQ(a.whole_from(), 1);  // 32 x 32 x 16 = 16384 cells
    EXPECT_EQ(b.whole_from(), 3);
    tdc::RankZeroVector state(rt.rank(), tdc::state_doubles(1));  // done = 0: nothing skips
    tdc::TiledField x("x", d, rt.rank()), ma("ma", d, rt.rank()), mb("mb", d, rt.rank());
    const tdc::TileLayout& L = d.layout();
    for (int t = 0; t < d.tiles(); ++t)
      if (x.owned(t))
        for (std::size_t q = 0; q < L.size(); ++q) x.host(t)[q] = std::sin(0.37 * double(q + 1000 * t)) + 0.1;
    a.submit(state.handle(), 2, x, ma);
    b.submit(state.handle(), 2, x, mb);
    std::vector<double> ga, gb;
    tdc::gather_field(d, ma, rt.rank(), ga);
    tdc::gather_field(d, mb, rt.rank(), gb);
    if (rt.rank() != 0) continue;
    EXPECT_EQ(ga, gb) << (zb == tdc::ZBoundary::Rigid ? "lids" : "periodic");
    double norm = 0;
    for (double v : ga) norm += v * v;
    EXPECT_GT(norm, 0.0);
  }
}

// PCG needs a symmetric preconditioner: <M x, y> = <x, M y> for the V-cycle, periodic and between lids.
TEST(LaplcMultigrid, VCycleIsSymmetric) {
  tdc::Runtime& rt = *tdc_test::g_runtime;
  for (tdc::ZBoundary zb : {tdc::ZBoundary::Periodic, tdc::ZBoundary::Rigid}) {
    const tdc::Grid g{32, 16, 16, 1.0, 0.5, 0.7};
    const tdc::Decomposition d(g, 2, 1, 2, rt.size());
    const auto levels = tdc::collocated_laplacian_levels(g, zb, tdc::multigrid_auto_levels(g));
    ASSERT_EQ(levels.size(), 2u);
    tdc::MultigridPreconditioner mg(d, rt.rank(), levels, tdc::MultigridSettings{});
    tdc::RankZeroVector state(rt.rank(), tdc::state_doubles(1));  // done = 0: nothing skips
    tdc::TiledField x("x", d, rt.rank()), y("y", d, rt.rank()), mx("mx", d, rt.rank()), my("my", d, rt.rank());
    const tdc::TileLayout& L = d.layout();
    for (int t = 0; t < d.tiles(); ++t)
      if (x.owned(t))
        for (std::size_t q = 0; q < L.size(); ++q) {
          x.host(t)[q] = std::sin(0.37 * double(q + 1000 * t)) + 0.1;
          y.host(t)[q] = std::cos(0.91 * double(q + 777 * t));
        }
    mg.submit(state.handle(), 2, x, mx);
    mg.submit(state.handle(), 2, y, my);
    std::vector<double> gx, gy, gmx, gmy;
    tdc::gather_field(d, x, rt.rank(), gx);
    tdc::gather_field(d, y, rt.rank(), gy);
    tdc::gather_field(d, mx, rt.rank(), gmx);
    tdc::gather_field(d, my, rt.rank(), gmy);
    if (rt.rank() != 0) continue;
    double a = 0, b = 0, mx2 = 0, y2 = 0, mxx = 0, x2 = 0;
    for (std::size_t q = 0; q < gx.size(); ++q) {
      a += gmx[q] * gy[q];
      b += gx[q] * gmy[q];
      mx2 += gmx[q] * gmx[q];
      y2 += gy[q] * gy[q];
      mxx += gmx[q] * gx[q];
      x2 += gx[q] * gx[q];
    }
    const double scale = std::sqrt(mx2 * y2);  // Cauchy-Schwarz bound on |a|
    EXPECT_NEAR(a, b, 1e-13 * scale) << (zb == tdc::ZBoundary::Rigid ? "lids" : "periodic");
    EXPECT_GT(mxx, 0.01 * std::sqrt(mx2 * x2)) << "positive, and not trivially zero";
  }
}

}  // namespace
