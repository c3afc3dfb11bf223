// Random tile data for kernel tests: a global periodic field cut into one tile whose ghost ring
// holds the periodic images (so a single tile is the whole domain).
#pragma once
#include <random>
#include <vector>

#include "codelets/common/tile_layout.hpp"
#include "reference_mpdata.hpp"

namespace tdc_test {

struct RandomCase {
  tdc::TileLayout L;
  ref::Grid g;
  ref::Field psi, G;
  ref::Faces c;
  // The same data in the tile layout (interior + periodic ghost ring).
  std::vector<double> t_psi, t_c1, t_c2, t_c3, t_g;
};

inline RandomCase random_case(int nx, int ny, int nz, int halo, bool rigid, bool signed_field, unsigned seed) {
  RandomCase r;
  r.L = {nx, ny, nz, halo};
  r.g = {nx, ny, nz, rigid};
  const std::size_t N = std::size_t(nx) * ny * nz;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> psi(signed_field ? -1.0 : 0.0, 1.0), c(-0.12, 0.12), G(0.8, 1.2);
  r.psi.resize(N);
  r.G.resize(N);
  r.c = {ref::Field(N), ref::Field(N), ref::Field(N)};
  for (std::size_t n = 0; n < N; ++n) {
    r.psi[n] = psi(rng);
    r.G[n] = G(rng);
    r.c.x[n] = c(rng);
    r.c.y[n] = c(rng);
    r.c.z[n] = c(rng);
  }
  // Patches of exact zeros (a tracer's empty background, still air), some wider than a warp and
  // some cut by its edges: zero quotients take their own path in the CUDA kernels.
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const std::size_t n = r.g.n(i, j, k);
        if ((i / 5 + j / 3 + k) % 3 == 0) r.psi[n] = 0.0;
        if ((i / 7 + j / 4 + k) % 4 == 0) r.c.x[n] = r.c.y[n] = r.c.z[n] = 0.0;
      }
  if (rigid)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) r.c.z[r.g.n(i, j, 0)] = 0.0;
  auto to_tile = [&](const ref::Field& f) {
    std::vector<double> t(r.L.size());
    for (int k = 0; k < nz; ++k)
      for (int j = -halo; j < ny + halo; ++j)
        for (int i = -halo; i < nx + halo; ++i)
          t[r.L.at(i, j, k)] = f[(std::size_t(k) * ny + r.g.wj(j)) * nx + r.g.wi(i)];
    return t;
  };
  r.t_psi = to_tile(r.psi);
  r.t_c1 = to_tile(r.c.x);
  r.t_c2 = to_tile(r.c.y);
  r.t_c3 = to_tile(r.c.z);
  r.t_g = to_tile(r.G);
  return r;
}

}  // namespace tdc_test
