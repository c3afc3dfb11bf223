#include "advector_kernel.hpp"

namespace tdc {

// Row by row over advector_box, one Courant component a loop: advector_cell's formulae in its order,
// so its bits.
void advector_cpu(const AdvectorArgs& a, const VelocityPointers& p, double* c1, double* c2, double* c3) {
  const TileLayout& L = a.L;
  const std::ptrdiff_t sx = L.sx();
  const Box b = advector_box(L, a.ring);
  const int n = b.width();
  for_each_row(L, b, [&](std::ptrdiff_t o, int k) {
    const std::ptrdiff_t below = row_neighbours(L, k, a.zb, 1.0).below;
    const double lid = a.zb == ZBoundary::Rigid && k == 0 ? 0.0 : 1.0;
    const double *u = p.u + o, *uo = p.u_old + o, *v = p.v + o, *vo = p.v_old + o, *w = p.w + o, *wo = p.w_old + o;
    double *r1 = c1 + o, *r2 = c2 + o, *r3 = c3 + o;
    for (int i = 0; i < n; ++i) r1[i] = a.cx * 0.5 * (half_step(u, uo, i - 1) + half_step(u, uo, i));
    for (int i = 0; i < n; ++i) r2[i] = a.cy * 0.5 * (half_step(v, vo, i - sx) + half_step(v, vo, i));
    for (int i = 0; i < n; ++i) r3[i] = lid * (a.cz * 0.5 * (half_step(w, wo, i + below) + half_step(w, wo, i)));
  });
}

}  // namespace tdc
