// Halo pack + unpack plans against filling each tile's ghost ring straight from the global field.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <limits>
#include <random>

#include "codelets/halo_pack/halo_pack_plan.hpp"
#include "codelets/halo_self/halo_self_plan.hpp"
#include "codelets/halo_unpack/halo_unpack_plan.hpp"

using namespace tdc;

namespace {

void exchange_and_check(int gnx, int gny, int nz, int tiles_x, int tiles_y, int halo) {
  const TileLayout L{gnx / tiles_x, gny / tiles_y, nz, halo};
  std::mt19937_64 rng(gnx * 131 + tiles_x * 7 + halo);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> global(std::size_t(gnx) * gny * nz);
  for (double& x : global) x = u(rng);
  auto G = [&](int i, int j, int k) {
    return global[(std::size_t(k) * gny + ((j % gny) + gny) % gny) * gnx + ((i % gnx) + gnx) % gnx];
  };
  const int T = tiles_x * tiles_y;
  std::vector<std::vector<double>> tile(T, std::vector<double>(L.size(), std::numeric_limits<double>::quiet_NaN()));
  std::vector<std::vector<double>> strips(4 * T);
  for (int t = 0; t < T; ++t) {
    const int ox = (t % tiles_x) * L.nx, oy = (t / tiles_x) * L.ny;
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < L.ny; ++j)
        for (int i = 0; i < L.nx; ++i) tile[t][L.at(i, j, k)] = G(ox + i, oy + j, k);
    double* s[4];
    for (int side = 0; side < 4; ++side) {
      strips[4 * t + side].assign(strip_size(L, side), std::numeric_limits<double>::quiet_NaN());
      s[side] = strips[4 * t + side].data();
    }
    strided_copies_cpu(halo_pack_plan(L, tile[t].data(), s));
  }
  for (int t = 0; t < T; ++t) {
    const int tx = t % tiles_x, ty = t / tiles_x;
    const double* own[4];
    const double* nb[kNeighbourSlots];
    for (int side = 0; side < 4; ++side) own[side] = strips[4 * t + side].data();
    for (int s = 0; s < kNeighbourSlots; ++s) {
      int dx, dy;
      neighbour_offset(s, dx, dy);
      const int nx_ = (tx + dx + tiles_x) % tiles_x, ny_ = (ty + dy + tiles_y) % tiles_y;
      nb[s] = strips[4 * (nx_ + tiles_x * ny_) + neighbour_strip_side(s)].data();
    }
    std::vector<double> filled(L.size(), std::numeric_limits<double>::quiet_NaN());
    // unpack into a copy that holds only the body (border cells must come from the own strips)
    for (int k = 0; k < nz; ++k)
      for (int j = halo; j < L.ny - halo; ++j)
        for (int i = halo; i < L.nx - halo; ++i) filled[L.at(i, j, k)] = tile[t][L.at(i, j, k)];
    strided_copies_cpu(halo_unpack_plan(L, filled.data(), own, nb));
    // the ring alone into the whole interior (the strips were packed from it)
    std::vector<double> ring_only = tile[t];
    strided_copies_cpu(halo_unpack_plan(L, ring_only.data(), nullptr, nb));
    const int ox = tx * L.nx, oy = ty * L.ny;
    for (int k = 0; k < nz; ++k)
      for (int j = -halo; j < L.ny + halo; ++j)
        for (int i = -halo; i < L.nx + halo; ++i) {
          const double e = G(ox + i, oy + j, k);
          ASSERT_EQ(0, std::memcmp(&e, &filled[L.at(i, j, k)], sizeof e))
              << "tile " << t << " cell " << i << "," << j << "," << k << " halo " << halo;
          ASSERT_EQ(0, std::memcmp(&e, &ring_only[L.at(i, j, k)], sizeof e))
              << "ring only: tile " << t << " cell " << i << "," << j << "," << k << " halo " << halo;
        }
  }
}

// A single tile fills its ghost ring from its own interior: the periodic images, corners included,
// and the interior untouched.
void self_halo_and_check(int nx, int ny, int nz, int halo) {
  const TileLayout L{nx, ny, nz, halo};
  std::vector<double> f(L.size(), std::numeric_limits<double>::quiet_NaN());
  auto value = [&](int i, int j, int k) { return std::sin(1.0 + i + 13.0 * j + 101.0 * k); };
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) f[L.at(i, j, k)] = value(i, j, k);
  strided_copies_cpu(halo_self_plan(L, f.data()));
  for (int k = 0; k < nz; ++k)
    for (int j = -halo; j < ny + halo; ++j)
      for (int i = -halo; i < nx + halo; ++i)
        ASSERT_EQ(f[L.at(i, j, k)], value((i + nx) % nx, (j + ny) % ny, k)) << i << "," << j << "," << k;
}

TEST(HaloPlans, SelfHaloIsThePeriodicImage) {
  self_halo_and_check(8, 7, 3, 3);
  self_halo_and_check(2, 2, 2, 2);  // a coarse multigrid tile as narrow as laplc's halo
  EXPECT_THROW(halo_self_plan(TileLayout{2, 4, 2, 3}, nullptr), std::invalid_argument);
}

TEST(HaloPlans, ManyTiles) { exchange_and_check(12, 10, 3, 3, 2, 3); }
TEST(HaloPlans, OneTileIsItsOwnNeighbour) { exchange_and_check(8, 7, 2, 1, 1, 3); }
TEST(HaloPlans, OneTileRow) { exchange_and_check(24, 9, 2, 4, 1, 2); }
TEST(HaloPlans, TilesAsNarrowAsTheHalo) { exchange_and_check(9, 6, 2, 3, 2, 3); }

}  // namespace
