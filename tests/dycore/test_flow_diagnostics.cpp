// The asynchronous diagnostics of the dynamical core (flow_diagnostics codelets on snapshots, tiles
// combined in tile order) agree with the same quantities computed from gathered fields in plain loops,
// periodic and between lids, and do not depend on the tile layout.
#include <gtest/gtest.h>

#include <cmath>

#include "src/dycore/dycore_config.hpp"
#include "src/dycore/dycore_model.hpp"
#include "tests/model/model_fixture.hpp"

namespace {

tdc::DycoreConfig config(std::vector<std::string> sets) {
  return tdc::parse_dycore_config("[case]\nkind = \"dycore\"\n", sets);
}

const std::vector<std::string> kTaylorGreen = {"grid.nx=16", "grid.ny=16", "grid.nz=16", "time.dt=0.08"};
const std::vector<std::string> kBubble = {"case.initial=\"thermal_bubble\"",
                                          "grid.nx=16",
                                          "grid.ny=16",
                                          "grid.nz=16",
                                          "grid.lx=2000.0",
                                          "grid.ly=2000.0",
                                          "grid.lz=2000.0",
                                          "time.dt=4.0"};

void expect_agree(const tdc::FlowDiagnostics& a, const tdc::FlowDiagnostics& g) {
  auto rel = [](double x, double y) { return std::fabs(x - y) <= 1e-14 * std::max(std::fabs(x), std::fabs(y)); };
  EXPECT_EQ(a.step, g.step);
  EXPECT_TRUE(rel(a.kinetic_energy, g.kinetic_energy)) << a.kinetic_energy << " " << g.kinetic_energy;
  EXPECT_TRUE(rel(a.enstrophy, g.enstrophy)) << a.enstrophy << " " << g.enstrophy;
  EXPECT_TRUE(rel(a.vorticity_l1, g.vorticity_l1)) << a.vorticity_l1 << " " << g.vorticity_l1;
  EXPECT_TRUE(rel(a.vorticity_l2, g.vorticity_l2));
  // Maxima are exact: the same formulae, any order.
  EXPECT_EQ(a.vorticity_max, g.vorticity_max);
  EXPECT_EQ(a.max_divergence, g.max_divergence);
  EXPECT_EQ(a.max_courant, g.max_courant);
  EXPECT_EQ(a.theta_max, g.theta_max);
  EXPECT_TRUE(rel(a.theta_mean, g.theta_mean)) << a.theta_mean << " " << g.theta_mean;
  EXPECT_TRUE(rel(a.theta_centroid_z, g.theta_centroid_z));
  EXPECT_TRUE(rel(a.potential_energy, g.potential_energy));
  EXPECT_EQ(a.solver_iterations, g.solver_iterations);
}

// Records after 0, 3 and 6 steps, asynchronous and gathered.
void check_case(const std::vector<std::string>& sets) {
  const tdc::DycoreConfig cfg = config(sets);
  auto& rt = *tdc_test::g_runtime;
  tdc::DycoreModel model(cfg, rt.rank(), rt.size());
  std::vector<tdc::FlowDiagnostics> gathered;
  for (int n = 0; n < 3; ++n) {
    model.submit_diagnostics();
    gathered.push_back(model.diagnose());
    if (n < 2) model.submit_steps(3);
  }
  const auto records = model.take_diagnostics(true);
  if (rt.rank() != 0) return;
  ASSERT_EQ(records.size(), 3u);
  for (int n = 0; n < 3; ++n) {
    SCOPED_TRACE("record " + std::to_string(n));
    if (n == 0) gathered[n].solver_iterations = 0;  // no step's solve yet
    expect_agree(records[n], gathered[n]);
  }
  EXPECT_GT(records[2].enstrophy, 0.0);
  EXPECT_GT(records[2].vorticity_max, 0.0);
}

TEST(FlowDiagnostics, AsynchronousEqualsGatheredPeriodic) { check_case(kTaylorGreen); }

TEST(FlowDiagnostics, AsynchronousEqualsGatheredBetweenLids) { check_case(kBubble); }

TEST(FlowDiagnostics, RecordsAreBitwiseIndependentOfTiles) {
  auto records = [](std::vector<std::string> sets) {
    auto& rt = *tdc_test::g_runtime;
    tdc::DycoreModel model(config(sets), rt.rank(), rt.size());
    model.submit_steps(4);
    model.submit_diagnostics();
    return model.take_diagnostics(true);
  };
  for (const auto& base : {kTaylorGreen, kBubble}) {
    auto tiled = base;
    tiled.push_back("tiles.x=4");
    tiled.push_back("tiles.y=2");
    const auto a = records(base), b = records(tiled);
    if (tdc_test::g_runtime->rank() != 0) continue;
    ASSERT_EQ(a.size(), b.size());
    const auto& x = a.back();
    const auto& y = b.back();
    EXPECT_EQ(x.kinetic_energy, y.kinetic_energy);
    EXPECT_EQ(x.enstrophy, y.enstrophy);
    EXPECT_EQ(x.vorticity_l1, y.vorticity_l1);
    EXPECT_EQ(x.vorticity_max, y.vorticity_max);
    EXPECT_EQ(x.max_divergence, y.max_divergence);
    EXPECT_EQ(x.theta_mean, y.theta_mean);
    EXPECT_EQ(x.theta_centroid_z, y.theta_centroid_z);
  }
}

}  // namespace
