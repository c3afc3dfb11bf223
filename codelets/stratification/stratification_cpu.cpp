#include "stratification_kernel.hpp"

namespace tdc {

// Row by row (for_each_row), the level's profile values taken with the row; the cells' formulae in
// their order, so their bits.
void environment_source_cpu(const ScaledArgs& a, const double* e, const double* w, double* theta) {
  const Box b = ring_box(a.L, a.ring);
  for_each_row(a.L, b, [&](std::ptrdiff_t o, int k) {
    const double s = env(e, kEnvDthetaDz, a.L.nz, k);
    const double* wr = w + o;
    double* t = theta + o;
    for (int i = 0; i < b.width(); ++i) t[i] = t[i] + a.factor * (s * wr[i]);
  });
}

void implicit_buoyancy_cpu(const ScaledArgs& a, const double* e, const double* theta, double* w) {
  const Box b = ring_box(a.L, a.ring);
  for_each_row(a.L, b, [&](std::ptrdiff_t o, int k) {
    const double alpha = env(e, kEnvAlpha, a.L.nz, k), f = a.factor * env(e, kEnvBuoyancy, a.L.nz, k);
    const double* t = theta + o;
    double* wr = w + o;
    for (int i = 0; i < b.width(); ++i) wr[i] = alpha * (wr[i] + f * t[i]);
  });
}

void height_buoyancy_cpu(const ScaledArgs& a, const double* e, const double* theta, double* w) {
  const Box b = ring_box(a.L, a.ring);
  for_each_row(a.L, b, [&](std::ptrdiff_t o, int k) {
    const double f = a.factor * env(e, kEnvBuoyancy, a.L.nz, k);
    const double* t = theta + o;
    double* wr = w + o;
    for (int i = 0; i < b.width(); ++i) wr[i] = wr[i] + f * t[i];
  });
}

void stratified_gradient_cpu(const CentredArgs& a, const double* e, const double* p, double* u, double* v, double* w) {
  const TileLayout& L = a.L;
  const std::ptrdiff_t sx = L.sx();
  const Box b = ring_box(L, a.ring);
  const int n_ = b.width();
  for_each_row(L, b, [&](std::ptrdiff_t o, int k) {
    const double alpha = env(e, kEnvAlpha, L.nz, k);
    const RowNeighbours n = row_neighbours(L, k, a.zb, 1.0);
    const double* pr = p + o;
    double *ur = u + o, *vr = v + o, *wr = w + o;
    for (int i = 0; i < n_; ++i) ur[i] = ur[i] - a.gx * (pr[i + 1] - pr[i - 1]);
    for (int i = 0; i < n_; ++i) vr[i] = vr[i] - a.gy * (pr[i + sx] - pr[i - sx]);
    for (int i = 0; i < n_; ++i) wr[i] = wr[i] - alpha * (a.gz * (pr[i + n.above] - pr[i + n.below]));
  });
}

}  // namespace tdc
