#include "pressure_gradient_kernel.hpp"

namespace tdc {

// Row by row (for_each_row): each cell's formula and its order are pressure_gradient_cell's and
// divergence_cell's (the CUDA kernels'), so the bits are theirs.
void pressure_gradient_from_cpu(const CentredArgs& a, const double* p, const double* const v0[3], double* const v[3]) {
  const TileLayout& L = a.L;
  const std::ptrdiff_t sx = L.sx();
  const Box b = ring_box(L, a.ring);
  const int n_ = b.width();
  for_each_row(L, b, [&](std::ptrdiff_t o, int k) {
    const RowNeighbours n = row_neighbours(L, k, a.zb, 1.0);
    const double* pr = p + o;
    const double *u0 = v0[0] + o, *v0r = v0[1] + o, *w0 = v0[2] + o;
    double *u = v[0] + o, *vv = v[1] + o, *w = v[2] + o;
    // One component a loop: few enough aliasing checks for the vectoriser.
    for (int i = 0; i < n_; ++i) u[i] = u0[i] - a.gx * (pr[i + 1] - pr[i - 1]);
    for (int i = 0; i < n_; ++i) vv[i] = v0r[i] - a.gy * (pr[i + sx] - pr[i - sx]);
    for (int i = 0; i < n_; ++i) w[i] = w0[i] - a.gz * (pr[i + n.above] - pr[i + n.below]);
  });
}

void pressure_gradient_cpu(const CentredArgs& a, const double* p, double* u, double* v, double* w) {
  double* const vel[3] = {u, v, w};
  pressure_gradient_from_cpu(a, p, vel, vel);
}

void divergence_cpu(const CentredArgs& a, const double* u, const double* v, const double* w, double* f) {
  const TileLayout& L = a.L;
  const std::ptrdiff_t sx = L.sx();
  for_each_row(L, [&](std::ptrdiff_t o, int k) {
    const RowNeighbours n = row_neighbours(L, k, a.zb, -1.0);  // w is odd: odd_above / odd_below
    const double *ur = u + o, *vr = v + o, *wr = w + o;
    double* fr = f + o;
    for (int i = 0; i < L.nx; ++i) {
      const double above = n.beyond_above * wr[i + n.above], below = n.beyond_below * wr[i + n.below];
      fr[i] = (a.gx * (ur[i + 1] - ur[i - 1]) + a.gy * (vr[i + sx] - vr[i - sx])) + a.gz * (above - below);
    }
  });
}

}  // namespace tdc
