#include "anelastic_kernel.hpp"

namespace tdc {

// Row by row (for_each_row), the mass_courant_cell and mass_divergence_cell formulae in their order,
// so their bits.
void mass_courant_cpu(const MassCourantArgs& a, const double* e, double* c1, double* c2, double* c3) {
  const TileLayout& L = a.L;
  const Box b = advector_box(L, a.ring);  // the faces the advector made
  const int n = b.width();
  for_each_row(L, b, [&](std::ptrdiff_t o, int k) {
    const double rho = env(e, kEnvDensity, L.nz, k);
    const double face = k > 0 ? 0.5 * (env(e, kEnvDensity, L.nz, k - 1) + rho) : rho;  // (the lid's face carries 0)
    double *r1 = c1 + o, *r2 = c2 + o, *r3 = c3 + o;
    for (int i = 0; i < n; ++i) r1[i] = rho * r1[i];
    for (int i = 0; i < n; ++i) r2[i] = rho * r2[i];
    for (int i = 0; i < n; ++i) r3[i] = face * r3[i];
  });
}

void mass_divergence_cpu(const CentredArgs& a, const double* e, const double* u, const double* v, const double* w,
                         double* f) {
  const TileLayout& L = a.L;
  const std::ptrdiff_t sx = L.sx();
  for_each_row(L, [&](std::ptrdiff_t o, int k) {
    const double rho = env(e, kEnvDensity, L.nz, k);
    const double up = env(e, kEnvDensity, L.nz, k_above(k, L.nz, a.zb)),
                 down = env(e, kEnvDensity, L.nz, k_below(k, L.nz, a.zb));
    const RowNeighbours n = row_neighbours(L, k, a.zb, -1.0);  // w is odd: odd_above / odd_below
    const double *ur = u + o, *vr = v + o, *wr = w + o;
    double* fr = f + o;
    for (int i = 0; i < L.nx; ++i) {
      const double wa = n.beyond_above * wr[i + n.above], wb = n.beyond_below * wr[i + n.below];
      fr[i] = (a.gx * (rho * ur[i + 1] - rho * ur[i - 1]) + a.gy * (rho * vr[i + sx] - rho * vr[i - sx])) +
              a.gz * (up * wa - down * wb);
    }
  });
}

}  // namespace tdc
