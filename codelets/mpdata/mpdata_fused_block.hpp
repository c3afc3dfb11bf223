// The fused iord = 2 MPDATA step as one block's work, written once for the CUDA kernel (a thread
// block) and the CPU (a cache-sized tile of columns): see mpdata_fused.hpp. No StarPU here.
#pragma once
#include "mpdata_formulae.hpp"

namespace tdc {
namespace mpdata {
namespace fused {

struct Geometry {
  TileLayout L;
  bool periodic;
  TDC_HD int phys(int v) const {  // the level a pipeline plane stands for
    if (periodic) return ((v % L.nz) + L.nz) % L.nz;
    return v < 0 ? 0 : (v >= L.nz ? L.nz - 1 : v);
  }
  TDC_HD ZBoundary zb() const { return periodic ? ZBoundary::Periodic : ZBoundary::Rigid; }
  // Planes below/at/above the level of pipeline plane `v` of a tile array (wrap or clamp).
  TDC_HD Planes global(const double* p, int v) const { return level_planes(p, L, phys(v), zb()); }
  TDC_HD Lids lids(int v) const { return level_lids(phys(v), L.nz, zb()); }
};

// A ring of D planes of a W × H region whose (0, 0) sits at absolute column (ox, oy).
template <int D, int W, int H>
struct Ring {
  double* data;
  int ox, oy;
  TDC_HD static int slot(int v) { return ((v % D) + D) % D; }
  TDC_HD double* plane(int v) const { return data + slot(v) * (W * H); }
  TDC_HD double& at(int v, int i, int j) const { return plane(v)[(i - ox) + W * (j - oy)]; }
  // Pipeline planes v-1, v, v+1: the neighbours below and above in the pipeline's (virtual) order.
  TDC_HD Planes around(int v) const {
    const int shift = ox + W * oy;
    return {plane(v - 1) - shift, plane(v) - shift, plane(v + 1) - shift, W};
  }
};

template <bool FCT, int TX, int TY>
struct Plan {
  static constexpr int R1 = FCT ? 2 : 1;  // psi1 reach around the output
  static constexpr int EV = FCT ? 1 : 0;  // antidiffusive velocities: lower faces of output grown by EV, +1 above
  static constexpr int W1 = TX + 2 * R1, H1 = TY + 2 * R1;
  static constexpr int WV = TX + 2 * EV + 1, HV = TY + 2 * EV + 1;
  static constexpr int WB = TX + 2, HB = TY + 2;
  static constexpr int D1 = FCT ? 5 : 4, DV = FCT ? 3 : 2, DB = 3;
  static constexpr int LAG = FCT ? 3 : 2;  // output plane = psi1 plane - LAG
  // The first planes each stage must produce for output plane 0: psi1 from 1 - LAG; velocities
  // from -1 with FCT (the limiter factors of plane -1 need them), else from 0.
  static constexpr int FIRST_V = FCT ? -1 : 0;
  static constexpr int doubles = D1 * W1 * H1 + 3 * DV * WV * HV + (FCT ? 2 * DB * WB * HB : 0);
};

// One block of output columns [I0, I0+TX) × [J0, J0+TY) (clipped to `box`), all levels. `Exec`
// spreads a region's points over the block's threads (CUDA) or loops over them (CPU), and
// synchronises between stages; `smem` holds Plan::doubles doubles.
#pragma nv_exec_check_disable
template <bool FCT, int TX, int TY, class Exec>
TDC_HD void fused_block(const Exec& ex, const Geometry& geo, const Options& o, Box box, int I0, int J0,
                        const double* psi0, const double* c1, const double* c2, const double* c3, const double* g,
                        double* out, double* smem) {
  using P = Plan<FCT, TX, TY>;
  const int ow = TX < box.i1 - I0 ? TX : box.i1 - I0, oh = TY < box.j1 - J0 ? TY : box.j1 - J0;
  Ring<P::D1, P::W1, P::H1> psi1{smem, I0 - P::R1, J0 - P::R1};
  double* next = smem + P::D1 * P::W1 * P::H1;
  Ring<P::DV, P::WV, P::HV> vel[3];
  for (int d = 0; d < 3; ++d) {
    vel[d] = {next, I0 - P::EV, J0 - P::EV};
    next += P::DV * P::WV * P::HV;
  }
  Ring<P::DB, P::WB, P::HB> up{next, I0 - 1, J0 - 1}, down{next + P::DB * P::WB * P::HB, I0 - 1, J0 - 1};
  const int nz = geo.L.nz;

  for (int m = 1 - P::LAG; m <= nz - 1 + P::LAG; ++m) {
    // A: donor-cell solution on pipeline plane m (reads device memory only).
    {
      const Lids v = geo.lids(m);
      const Planes P0 = geo.global(psi0, m), C1 = geo.global(c1, m), C2 = geo.global(c2, m), C3 = geo.global(c3, m),
                   G = geo.global(g, m);
      ex.region(I0 - P::R1, J0 - P::R1, ow + 2 * P::R1, oh + 2 * P::R1,
                [&](int i, int j) { psi1.at(m, i, j) = upwind_cell(v, P0, C1, C2, C3, G, i, j, false); });
    }
    ex.sync();
    // B: antidiffusive velocities on the lower faces of plane q = m - 1.
    const int q = m - 1;
    if (q >= P::FIRST_V) {
      const Lids v = geo.lids(q);
      const Planes P1 = psi1.around(q), C1 = geo.global(c1, q), C2 = geo.global(c2, q), C3 = geo.global(c3, q),
                   G = geo.global(g, q);
      const int e = P::EV;
      ex.region(I0 - e, J0 - e, ow + 2 * e + 1, oh + 2 * e,
                [&](int i, int j) { vel[0].at(q, i, j) = antidiffusive_x(v, o, P1, C1, C2, C3, G, i, j); });
      ex.region(I0 - e, J0 - e, ow + 2 * e, oh + 2 * e + 1,
                [&](int i, int j) { vel[1].at(q, i, j) = antidiffusive_y(v, o, P1, C1, C2, C3, G, i, j); });
      ex.region(I0 - e, J0 - e, ow + 2 * e, oh + 2 * e,
                [&](int i, int j) { vel[2].at(q, i, j) = antidiffusive_z(v, o, P1, C1, C2, C3, G, i, j); });
    }
    ex.sync();
    // C: limiter factors on plane r = m - 2 (FCT only).
    if (FCT) {
      const int r = m - 2;
      if (r >= -1) {
        const Lids v = geo.lids(r);
        const Planes P0 = geo.global(psi0, r), P1 = psi1.around(r), V1 = vel[0].around(r), V2 = vel[1].around(r),
                     V3 = vel[2].around(r), G = geo.global(g, r);
        ex.region(I0 - 1, J0 - 1, ow + 2, oh + 2, [&](int i, int j) {
          const Beta b = fct_beta_cell(v, o, P0, P1, P1, V1, V2, V3, G, i, j);
          up.at(r, i, j) = b.up;
          down.at(r, i, j) = b.down;
        });
      }
      ex.sync();
    }
    // D: the corrective pass on output plane k = m - LAG, with the limited velocities formed on the fly.
    const int k = m - P::LAG;
    if (k >= 0 && k < nz) {
      const Lids v = geo.lids(k);
      const Planes P1 = psi1.around(k), G = geo.global(g, k);
      ex.region(I0, J0, ow, oh, [&](int i, int j) {
        const Planes V1 = vel[0].around(k), V2 = vel[1].around(k), V3 = vel[2].around(k);
        if (FCT) {
          out[geo.L.at(i, j, k)] = limited_upwind_cell(v, P1, V1, V2, V3, up.around(k), down.around(k), G, i, j, o.iga);
        } else {
          out[geo.L.at(i, j, k)] = upwind_cell(v, P1, V1, V2, V3, G, i, j, o.iga);
        }
      });
    }
    // The next iteration overwrites the oldest ring slots: everyone must be done reading them.
    ex.sync();
  }
}

}  // namespace fused
}  // namespace mpdata
}  // namespace tdc
