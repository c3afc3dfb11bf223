// The advection model through the whole task graph: conservation, monotonicity, convergence order,
// return of the deformational flow, and bitwise independence of the tile layout.
#include <gtest/gtest.h>

#include <cmath>

#include "model_fixture.hpp"

using tdc_test::run_case;

namespace {

const char* kRotation = R"(
[case]
name = "rotation_test"
flow = "rotation"
[grid]
nx = 48
ny = 36
nz = 6
z_boundary = "rigid"
[tiles]
x = 2
y = 2
[time]
dt = 0.003
steps = 60
[initial]
shape = "cone"
center = [0.5, 0.7, 0.5]
radius = 0.2
[density]
scale_height = 0.5
)";

const char* kDeformational = R"(
[case]
name = "deformational_test"
flow = "deformational"
[grid]
nx = 24
ny = 24
nz = 24
[tiles]
x = 2
y = 2
[time]
dt = 0.0125
steps = 80
[flow]
period = 1.0
[initial]
shape = "cone"
center = [0.35, 0.35, 0.35]
radius = 0.2
dims = 3
)";

double v(const nlohmann::json& j, const char* key) { return j["validation"][key].get<double>(); }

TEST(Advection, MassConservedToRoundOff) {
  for (const char* c : {kRotation, kDeformational}) {
    const auto j = run_case(c);
    EXPECT_LT(v(j, "mass_rel_change"), 1e-12) << j["case"];
    EXPECT_GT(v(j, "mass_initial"), 0.0);
  }
  // The infinite-gauge option on a sign-changing field conserves mass as well.
  const auto j = run_case(kRotation, {"mpdata.iga=true", "initial.background=-0.3"});
  EXPECT_LT(v(j, "mass_rel_change"), 1e-12);
}

TEST(Advection, FctCreatesNoNewExtrema) {
  for (const char* c : {kRotation, kDeformational}) {
    const auto j = run_case(c);
    EXPECT_GE(v(j, "min"), v(j, "initial_min")) << j["case"];
    EXPECT_LE(v(j, "max"), v(j, "initial_max")) << j["case"];
    EXPECT_GE(v(j, "min"), 0.0);
  }
  // Plain MPDATA is sign-preserving by itself, but the infinite-gauge option is not: without the
  // limiter it undershoots at the cone's edge (so the check above can fail), with it it does not.
  const auto bare = run_case(kRotation, {"mpdata.iga=true", "mpdata.fct=false"});
  EXPECT_LT(v(bare, "min"), -1e-3);
  const auto limited = run_case(kRotation, {"mpdata.iga=true", "mpdata.fct=true"});
  EXPECT_GE(v(limited, "min"), v(limited, "initial_min"));
  EXPECT_LE(v(limited, "max"), v(limited, "initial_max"));
}

// Translation of a smooth Gaussian at fixed Courant numbers (0.25, 0.125); error at t = steps/(4n).
double translation_error(int n, int iord, bool fct, int steps_per_cell = 4) {
  const std::string toml = R"(
[case]
name = "convergence"
flow = "translation"
[grid]
nz = 2
[tiles]
x = 2
y = 2
[flow]
velocity = [1.0, 0.5, 0.0]
[initial]
shape = "gaussian"
center = [0.5, 0.5, 0.5]
radius = 0.15
dims = 2
)";
  const auto j = run_case(
      toml, {"grid.nx=" + std::to_string(n), "grid.ny=" + std::to_string(n), "time.dt=" + std::to_string(0.25 / n),
             "time.steps=" + std::to_string(steps_per_cell * n), "mpdata.iord=" + std::to_string(iord),
             "mpdata.fct=" + std::string(fct ? "true" : "false"), "tiles.halo=3"});
  return v(j, "l2_error");
}

TEST(Advection, ConvergenceOrder) {
  const double e32 = translation_error(32, 2, false), e64 = translation_error(64, 2, false),
               e128 = translation_error(128, 2, false);
  const double order2 = std::log2(e64 / e128);
  std::printf("iord=2: l2 errors %.3e %.3e %.3e, orders %.2f %.2f\n", e32, e64, e128, std::log2(e32 / e64), order2);
  EXPECT_GE(order2, 1.8);
  // Donor cell is so diffusive that its error is still far from asymptotic at t = 1 on these grids
  // (order 0.7); at t = 0.25 on 128 and 256 it is first order.
  const double d128 = translation_error(128, 1, false, 1), d256 = translation_error(256, 1, false, 1);
  const double order1 = std::log2(d128 / d256);
  std::printf("donor cell: l2 errors %.3e %.3e, order %.2f\n", d128, d256, order1);
  EXPECT_GT(order1, 0.8);
  EXPECT_LT(order1, 1.2);
}

TEST(Advection, DeformationalFlowReturnsTheInitialState) {
  const auto j = run_case(kDeformational);
  // At 24^3 the filament is under-resolved; the error bound is loose but far below 1 (a field
  // that did not come back would have an l2 error near sqrt(2)).
  EXPECT_LT(v(j, "l2_error"), 0.6);
}

TEST(Advection, BitwiseIndependentOfTileLayoutAndOverlap) {
  const auto ref = run_case(kRotation, {"tiles.x=1", "tiles.y=1"});
  for (auto [tx, ty] : {std::pair{2, 2}, std::pair{4, 3}, std::pair{3, 1}})
    for (const char* overlap : {"true", "false"}) {
      const auto j = run_case(kRotation, {"tiles.x=" + std::to_string(tx), "tiles.y=" + std::to_string(ty),
                                          std::string("tiles.overlap=") + overlap});
      EXPECT_EQ(j["field_checksum"], ref["field_checksum"]) << tx << "x" << ty << " overlap " << overlap;
      EXPECT_EQ(j["validation"]["mass_final"].get<double>(), ref["validation"]["mass_final"].get<double>());
    }
  const auto d1 = run_case(kDeformational, {"tiles.x=1", "tiles.y=1"});
  const auto d2 = run_case(kDeformational, {"tiles.x=4", "tiles.y=3"});
  EXPECT_EQ(d1["field_checksum"], d2["field_checksum"]);
}

TEST(Advection, SchedulerDoesNotChangeTheAnswer) {
  // Different schedulers run tasks in different orders and on different workers.
  const auto a = run_case(kRotation);
  const auto b = run_case(kRotation, {"runtime.scheduler=\"eager\""});  // the runtime keeps its scheduler: the
  EXPECT_EQ(a["field_checksum"], b["field_checksum"]);                  // config key must still parse
}

}  // namespace
