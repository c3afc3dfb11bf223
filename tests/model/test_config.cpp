// Configuration validation: every bad input names its key.
#include <gtest/gtest.h>

#include "src/advection/advection_run.hpp"
#include "src/advection/advection_config.hpp"

using namespace tdc;

namespace {

std::string key_of(const std::string& toml, const std::vector<std::string>& sets = {}) {
  try {
    const AdvectionConfig c = parse_config(toml, sets);
    check_courant(c);
  } catch (const ConfigError& e) {
    return e.key();
  }
  return "";
}

TEST(Config, DefaultsAreValid) { EXPECT_EQ(key_of(""), ""); }

TEST(Config, BadInputNamesTheKey) {
  EXPECT_EQ(key_of("[grid]\nnxx = 4\n"), "grid.nxx");
  EXPECT_EQ(key_of("[grid]\nnx = \"many\"\n"), "grid.nx");
  EXPECT_EQ(key_of("[grid]\nnx = -4\n"), "grid.nx");
  EXPECT_EQ(key_of("", {"grid.nz=0"}), "grid.nz");
  EXPECT_EQ(key_of("", {"tiles.x=3"}), "tiles.x");        // 64 columns in 3 tiles
  EXPECT_EQ(key_of("", {"tiles.halo=2"}), "tiles.halo");  // iord 2 + FCT needs 3
  EXPECT_EQ(key_of("", {"tiles.x=32"}), "tiles.x");       // tiles of 2 columns < halo 3
  EXPECT_EQ(key_of("", {"time.dt=1.0"}), "time.dt");      // Courant number > 1
  EXPECT_EQ(key_of("", {"mpdata.iord=0"}), "mpdata.iord");
  EXPECT_EQ(key_of("", {"mpdata.fct=3"}), "mpdata.fct");
  EXPECT_EQ(key_of("", {"case.flow=spiral"}), "case.flow");
  EXPECT_EQ(key_of("", {"flow.velocity=[1.0, 2.0]"}), "flow.velocity");
  EXPECT_EQ(key_of("[unknown]\na = 1\n"), "unknown");
  EXPECT_EQ(key_of("this is not toml"), "<text>");
}

TEST(Config, NumbersAreRangeCheckedBeforeUse) {
  EXPECT_EQ(key_of("", {"grid.nx=4294967328"}), "grid.nx");  // 2^32 + 32 does not wrap to 32
  EXPECT_EQ(key_of("", {"time.steps=2147483648"}), "time.steps");
  EXPECT_EQ(key_of("", {"mpdata.iord=4294967298"}), "mpdata.iord");
  EXPECT_EQ(key_of("", {"tiles.x=4294967298"}), "tiles.x");
  EXPECT_EQ(key_of("", {"case.flow=translation", "flow.velocity=[nan, 0, 0]"}), "flow.velocity");
  EXPECT_EQ(key_of("", {"initial.amplitude=nan"}), "initial.amplitude");
  EXPECT_EQ(key_of("", {"grid.lx=inf"}), "grid.lx");
  EXPECT_EQ(key_of("", {"time.dt=-inf"}), "time.dt");
  EXPECT_EQ(key_of("", {"grid.lz=1e400"}), "grid.lz");
  EXPECT_EQ(key_of("", {"grid.nx=100000", "grid.ny=100000", "grid.nz=32"}), "grid.nx");
}

TEST(Config, OnlyTheChosenVariantsKeys) {
  EXPECT_EQ(key_of("", {"case.flow=translation", "flow.omega=1.0"}), "flow.omega");
  EXPECT_EQ(key_of("", {"case.flow=rotation", "flow.period=1.0"}), "flow.period");
  EXPECT_EQ(key_of("", {"case.flow=deformational", "flow.center=[0.5, 0.5]"}), "flow.center");
  EXPECT_EQ(key_of("", {"case.flow=translation", "flow.velocity=[1.0, 0.0, 0.0]"}), "");
}

TEST(Config, CaseNameCannotLeaveTheRunsFolder) {
  for (const char* name :
       {"case.name=../..", "case.name=a/b", "case.name=\"\"", "case.name=\".x\"", "case.name=\"\\u001b[31m\""})
    EXPECT_EQ(key_of("", {name}), "case.name") << name;
  EXPECT_EQ(key_of("", {"case.name=my_case-2.v1"}), "");
}

TEST(Config, OverridesAreOneLine) { EXPECT_EQ(key_of("", {"time.steps=5\ngrid.nx=2"}), "time.steps"); }

TEST(Config, OverridesTakeEffect) {
  const AdvectionConfig c =
      parse_config("[grid]\nnx = 32\n", {"grid.nx=48", "case.flow=translation", "mpdata.iga=true"});
  EXPECT_EQ(c.grid.nx, 48);
  EXPECT_EQ(c.flow, Flow::Translation);
  EXPECT_TRUE(c.mpdata.iga);
}

// The MPDATA kernel variant is a configuration key (the environment only sets its default).
TEST(Config, KernelVariantIsAKey) {
  const AdvectionConfig fused = parse_config("", {"mpdata.kernel=\"fused\"", "mpdata.fused_block=\"32x4\""});
  EXPECT_TRUE(fused.mpdata.fused);
  EXPECT_EQ(fused.mpdata.fused_block_y, 4);
  const AdvectionConfig staged = parse_config("", {"mpdata.kernel=\"staged\""});
  EXPECT_FALSE(staged.mpdata.fused);
  EXPECT_EQ(staged.mpdata.fused_block_y, 8);
  EXPECT_EQ(key_of("", {"mpdata.kernel=\"blocked\""}), "mpdata.kernel");
}

}  // namespace
