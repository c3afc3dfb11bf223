#include "viscous_diffusion_kernel.hpp"

namespace tdc {
namespace {

// Row by row (for_each_row), laplacian_term's formula in its order, so its bits.
void diffuse(const DiffusionArgs& a, const double* src, double* dst, double parity) {
  const TileLayout& L = a.L;
  const std::ptrdiff_t sx = L.sx();
  const Box b = ring_box(L, a.ring);
  const int n_ = b.width();
  for_each_row(L, b, [&](std::ptrdiff_t o, int k) {
    const RowNeighbours n = row_neighbours(L, k, a.zb, parity);
    const double* s = src + o;
    double* d = dst + o;
    for (int i = 0; i < n_; ++i) {
      const double c = s[i], up = n.beyond_above * s[i + n.above], down = n.beyond_below * s[i + n.below];
      d[i] = d[i] + ((a.fx * ((s[i + 1] - c) + (s[i - 1] - c)) + a.fy * ((s[i + sx] - c) + (s[i - sx] - c))) +
                     a.fz * ((up - c) + (down - c)));
    }
  });
}

}  // namespace

void viscous_diffusion_cpu(const DiffusionArgs& a, const double* const src[3], double* const dst[3]) {
  for (int q = 0; q < 3; ++q) diffuse(a, src[q], dst[q], q == 2 ? -1.0 : 1.0);
}

void scalar_diffusion_cpu(const DiffusionArgs& a, const double* src, double* dst) { diffuse(a, src, dst, 1.0); }

}  // namespace tdc
