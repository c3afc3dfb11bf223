// Compensated per-tile moments: accurate against a long-double reference and, combined over tiles in
// tile order, bitwise independent of the tile layout.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "codelets/tile_moments/tile_moments_kernel.hpp"

using namespace tdc;

namespace {

struct Global {
  int nx, ny, nz;
  std::vector<double> psi, g;
};

Global random_global(int nx, int ny, int nz) {
  Global G{nx, ny, nz, {}, {}};
  std::mt19937_64 rng(nx * 1000 + ny);
  std::uniform_real_distribution<double> u(-1, 1), e(-20, 20);
  for (int n = 0; n < nx * ny * nz; ++n) {
    G.psi.push_back(u(rng) * std::exp2(e(rng)));  // wide dynamic range: plain sums lose digits here
    G.g.push_back(0.5 + 0.5 * std::fabs(u(rng)));
  }
  return G;
}

Moments tiled_moments(const Global& G, int tx, int ty) {
  const TileLayout L{G.nx / tx, G.ny / ty, G.nz, 2};
  Moments total{};
  for (int t = 0; t < tx * ty; ++t) {
    std::vector<double> psi(L.size(), 1e300), g(L.size(), 1e300);  // ghosts must not be read
    const int ox = (t % tx) * L.nx, oy = (t / tx) * L.ny;
    for (int k = 0; k < G.nz; ++k)
      for (int j = 0; j < L.ny; ++j)
        for (int i = 0; i < L.nx; ++i) {
          const std::size_t n = (std::size_t(k) * G.ny + oy + j) * G.nx + ox + i;
          psi[L.at(i, j, k)] = G.psi[n];
          g[L.at(i, j, k)] = G.g[n];
        }
    double out[kMomentsDoubles];
    tile_moments_cpu(L, psi.data(), g.data(), out);
    total = t == 0 ? moments_from(out) : combine(total, moments_from(out));
  }
  return total;
}

TEST(TileMoments, AccurateAgainstLongDouble) {
  const Global G = random_global(24, 18, 7);
  long double mass = 0, sq = 0;
  double mn = G.psi[0], mx = G.psi[0];
  for (std::size_t n = 0; n < G.psi.size(); ++n) {
    mass += (long double)(G.g[n] * G.psi[n]);
    sq += (long double)(G.g[n] * G.psi[n] * G.psi[n]);
    mn = std::min(mn, G.psi[n]);
    mx = std::max(mx, G.psi[n]);
  }
  const Moments m = tiled_moments(G, 1, 1);
  EXPECT_NEAR(dd_value(m.mass), double(mass), 1e-15 * std::fabs(double(mass)));
  EXPECT_NEAR(dd_value(m.mass_sq), double(sq), 1e-15 * double(sq));
  EXPECT_EQ(m.min, mn);
  EXPECT_EQ(m.max, mx);
}

TEST(TileMoments, BitwiseIndependentOfTiling) {
  const Global G = random_global(24, 18, 7);
  const Moments a = tiled_moments(G, 1, 1), b = tiled_moments(G, 2, 2), c = tiled_moments(G, 4, 3),
                d = tiled_moments(G, 8, 6);
  for (const Moments* m : {&b, &c, &d}) {
    const double x = dd_value(a.mass), y = dd_value(m->mass);
    EXPECT_EQ(0, std::memcmp(&x, &y, sizeof x));
    const double p = dd_value(a.mass_sq), q = dd_value(m->mass_sq);
    EXPECT_EQ(0, std::memcmp(&p, &q, sizeof p));
  }
  // Plain summation in these orders would disagree: check that the data is hard enough.
  double s1 = 0, s2 = 0;
  for (std::size_t n = 0; n < G.psi.size(); ++n) s1 += G.g[n] * G.psi[n];
  for (std::size_t n = G.psi.size(); n-- > 0;) s2 += G.g[n] * G.psi[n];
  EXPECT_NE(s1, s2);
}

}  // namespace
