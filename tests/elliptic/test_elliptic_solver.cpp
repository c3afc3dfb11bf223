// The Krylov solvers through StarPU on the thin-shell problem: convergence, second-order accuracy
// against the manufactured solution, fused vs unfused PCG, GCR on a nonsymmetric operator, iteration
// counts that do not grow with horizontal resolution at a fixed Courant number (paper 002 §3), and
// bitwise identical iteration histories and solutions for any tile layout.
#include <gtest/gtest.h>

#include <cmath>

#include "src/elliptic/elliptic_config.hpp"
#include "src/elliptic/elliptic_run.hpp"
#include "tests/model/model_fixture.hpp"

namespace {

nlohmann::json solve(std::vector<std::string> sets) {
  sets.push_back("output.fields=false");
  const tdc::EllipticConfig cfg = tdc::parse_elliptic_config("[case]\nkind = \"elliptic\"\n", sets);
  return tdc::run_elliptic(cfg, *tdc_test::g_runtime, "");
}

std::vector<double> history(const nlohmann::json& j) {
  return j["solver"]["residual_history"].get<std::vector<double>>();
}

const std::vector<std::string> kSmall = {"grid.nx=32", "grid.ny=32", "grid.nz=16"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(EllipticSolver, FusedPcgReachesTheToleranceAndTheTrueResidualAgrees) {
  const auto j = solve(kSmall);
  EXPECT_TRUE(j["solver"]["converged"].get<bool>());
  const auto h = history(j);
  ASSERT_GE(h.size(), 3u);
  EXPECT_LE(h.back(), 1e-10 * h.front());
  EXPECT_LT(j["validation"]["true_residual_rel"].get<double>(), 1e-9);
  EXPECT_EQ(int(h.size()), j["solver"]["iterations"].get<int>() + 1);
}

TEST(EllipticSolver, DiscretisationErrorFallsAtSecondOrder) {
  const double e1 = solve({"grid.nx=16", "grid.ny=16", "grid.nz=16"})["validation"]["error_l2"].get<double>();
  const double e2 = solve({"grid.nx=32", "grid.ny=32", "grid.nz=32"})["validation"]["error_l2"].get<double>();
  const double e3 = solve({"grid.nx=64", "grid.ny=64", "grid.nz=64"})["validation"]["error_l2"].get<double>();
  const double order_a = std::log2(e1 / e2), order_b = std::log2(e2 / e3);
  std::printf("error_l2 %.4g %.4g %.4g, order %.3f %.3f\n", e1, e2, e3, order_a, order_b);
  EXPECT_NEAR(order_b, 2.0, 0.1);
  EXPECT_GT(order_a, 1.8);
}

TEST(EllipticSolver, UnfusedPcgFollowsTheFusedOne) {
  const auto fused = solve(with(kSmall, {"shell.rhs=random", "solver.tol_rel=1e-8"}));
  const auto plain = solve(with(kSmall, {"shell.rhs=random", "solver.tol_rel=1e-8", "solver.fused=false"}));
  const auto hf = history(fused), hp = history(plain);
  EXPECT_TRUE(plain["solver"]["converged"].get<bool>());
  EXPECT_NEAR(double(hf.size()), double(hp.size()), 1.0);
  for (std::size_t i = 0; i < std::min(hf.size(), hp.size()); ++i)
    EXPECT_NEAR(hp[i] / hp[0], hf[i] / hf[0], 1e-6 + 1e-6 * hf[i] / hf[0]) << "iteration " << i;
}

TEST(EllipticSolver, GcrSolvesSymmetricAndNonsymmetricProblems) {
  const double pcg_error = solve(kSmall)["validation"]["error_l2"].get<double>();
  for (const char* skew : {"shell.skew=0.0", "shell.skew=20.0"}) {
    const auto j = solve(with(kSmall, {"solver.method=gcr", "solver.restart=3", skew}));
    EXPECT_TRUE(j["solver"]["converged"].get<bool>()) << skew;
    EXPECT_LT(j["validation"]["true_residual_rel"].get<double>(), 1e-9) << skew;
    // Solved to the tolerance, only the discretisation error is left (the skew term adds a little).
    EXPECT_NEAR(j["validation"]["error_l2"].get<double>(), pcg_error, 0.02 * pcg_error) << skew;
  }
  // Second order holds for the nonsymmetric operator too.
  const double coarse = solve({"grid.nx=16", "grid.ny=16", "grid.nz=16", "solver.method=gcr",
                               "shell.skew=20.0"})["validation"]["error_l2"]
                            .get<double>();
  const double fine = solve({"grid.nx=32", "grid.ny=32", "grid.nz=32", "solver.method=gcr",
                             "shell.skew=20.0"})["validation"]["error_l2"]
                          .get<double>();
  EXPECT_NEAR(std::log2(coarse / fine), 2.0, 0.15);
  EXPECT_THROW(tdc::parse_elliptic_config("", {"shell.skew=1.0"}), tdc::ConfigError);  // PCG needs symmetry
}

TEST(EllipticSolver, IterationsDoNotGrowWithHorizontalResolutionAtFixedCourantNumber) {
  std::vector<int> its;
  for (int n : {32, 64, 128}) {
    const auto j = solve({"grid.nx=" + std::to_string(n), "grid.ny=" + std::to_string(n), "grid.nz=16",
                          "shell.rhs=random", "shell.courant_reference_nx=128", "solver.tol_rel=1e-6"});
    its.push_back(j["solver"]["iterations"].get<int>());
  }
  std::printf("iterations at 32, 64, 128 columns: %d %d %d\n", its[0], its[1], its[2]);
  EXPECT_LE(its[2], its[1] + 3);
  EXPECT_LE(its[1], its[0] + 25);
  // Control: with omega^2 fixed the Courant number grows with resolution and so do the iterations.
  const auto fixed = solve(
      {"grid.nx=128", "grid.ny=128", "grid.nz=16", "shell.rhs=random", "solver.tol_rel=1e-6", "shell.omega2=0.0429"});
  EXPECT_GT(fixed["solver"]["iterations"].get<int>(), its[2]);
}

TEST(EllipticSolver, HistoriesAndSolutionsAreBitwiseIndependentOfTiles) {
  for (std::vector<std::string> method : {std::vector<std::string>{"solver.method=pcg"},
                                          {"solver.method=pcg", "solver.fused=false"},
                                          {"solver.method=gcr", "solver.restart=4"}}) {
    method.push_back("shell.rhs=random");
    method.push_back("solver.tol_rel=1e-9");
    const auto ref = solve(with(kSmall, method));
    for (const char* tiles : {"tiles.x=2", "tiles.y=4"}) {
      const auto j = solve(with(with(kSmall, method), {tiles, "tiles.x=2"}));
      EXPECT_EQ(history(j), history(ref)) << method[0] << " " << tiles;
      EXPECT_EQ(j["solution_checksum"], ref["solution_checksum"]) << method[0] << " " << tiles;
    }
  }
}

TEST(EllipticSolver, CheckIntervalDoesNotChangeTheResult) {
  const auto a = solve(with(kSmall, {"shell.rhs=random", "solver.check_every=1"}));
  const auto b = solve(with(kSmall, {"shell.rhs=random", "solver.check_every=25"}));
  EXPECT_EQ(history(a), history(b));
  EXPECT_EQ(a["solution_checksum"], b["solution_checksum"]);
}

}  // namespace
