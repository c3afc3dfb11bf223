#include "mpdata_stages.hpp"

namespace tdc {
namespace mpdata {

void upwind_cpu(const Cells& s, Box box, const double* psi, const double* c1, const double* c2, const double* c3,
                const double* g, double* out, bool linear) {
  with_density(g, [&](auto density) {
    for (int k = 0; k < s.L.nz; ++k) {
      const Lids l = s.lids(k);
      const Planes P = s.at(psi, k), C1 = s.at(c1, k), C2 = s.at(c2, k), C3 = s.at(c3, k);
      const auto G = density.at(s, k);
      for (int j = box.j0; j < box.j1; ++j)
        for (int i = box.i0; i < box.i1; ++i) out[s.L.at(i, j, k)] = upwind_cell(l, P, C1, C2, C3, G, i, j, linear);
    }
  });
}

void limited_upwind_cpu(const Cells& s, Box box, const double* psi, const double* v1, const double* v2,
                        const double* v3, const double* up, const double* down, const double* g, double* out,
                        bool linear) {
  with_density(g, [&](auto density) {
    for (int k = 0; k < s.L.nz; ++k) {
      const Lids l = s.lids(k);
      const Planes P = s.at(psi, k), V1 = s.at(v1, k), V2 = s.at(v2, k), V3 = s.at(v3, k), U = s.at(up, k),
                   D = s.at(down, k);
      const auto G = density.at(s, k);
      for (int j = box.j0; j < box.j1; ++j)
        for (int i = box.i0; i < box.i1; ++i)
          out[s.L.at(i, j, k)] = limited_upwind_cell(l, P, V1, V2, V3, U, D, G, i, j, linear);
    }
  });
}

void antidiffusive_cpu(const Cells& s, const Options& o, Box box, const double* psi, const double* c1, const double* c2,
                       const double* c3, const double* g, double* v1, double* v2, double* v3) {
  with_density(g, [&](auto density) {
    for (int k = 0; k < s.L.nz; ++k) {
      const Lids l = s.lids(k);
      const Planes P = s.at(psi, k), C1 = s.at(c1, k), C2 = s.at(c2, k), C3 = s.at(c3, k);
      const auto G = density.at(s, k);
      for (int j = box.j0; j < box.j1; ++j)
        for (int i = box.i0; i < box.i1; ++i) {
          const std::ptrdiff_t n = s.L.at(i, j, k);
          v1[n] = antidiffusive_x(l, o, P, C1, C2, C3, G, i, j);
          v2[n] = antidiffusive_y(l, o, P, C1, C2, C3, G, i, j);
          v3[n] = antidiffusive_z(l, o, P, C1, C2, C3, G, i, j);
        }
    }
  });
}

void fct_beta_cpu(const Cells& s, const Options& o, Box box, const double* psi0, const double* psi1, const double* psi,
                  const double* v1, const double* v2, const double* v3, const double* g, double* up, double* down) {
  with_density(g, [&](auto density) {
    for (int k = 0; k < s.L.nz; ++k) {
      const Lids l = s.lids(k);
      const Planes P0 = s.at(psi0, k), P1 = s.at(psi1, k), P = s.at(psi, k), V1 = s.at(v1, k), V2 = s.at(v2, k),
                   V3 = s.at(v3, k);
      const auto G = density.at(s, k);
      for (int j = box.j0; j < box.j1; ++j)
        for (int i = box.i0; i < box.i1; ++i) {
          const Beta b = fct_beta_cell(l, o, P0, P1, P, V1, V2, V3, G, i, j);
          up[s.L.at(i, j, k)] = b.up;
          down[s.L.at(i, j, k)] = b.down;
        }
    }
  });
}

void fct_limit_cpu(const Cells& s, Box box, const double* up, const double* down, double* v1, double* v2, double* v3) {
  for (int k = 0; k < s.L.nz; ++k) {
    const Lids l = s.lids(k);
    const int kb = k_below(k, s.L.nz, s.zb);
    for (int j = box.j0; j < box.j1; ++j)
      for (int i = box.i0; i < box.i1; ++i) {
        const std::ptrdiff_t n = s.L.at(i, j, k), w = s.L.at(i - 1, j, k), so = s.L.at(i, j - 1, k);
        v1[n] = fct_limit_face(v1[n], up[w], down[w], up[n], down[n]);
        v2[n] = fct_limit_face(v2[n], up[so], down[so], up[n], down[n]);
        if (!l.below) {
          const std::ptrdiff_t b = s.L.at(i, j, kb);
          v3[n] = fct_limit_face(v3[n], up[b], down[b], up[n], down[n]);
        }
      }
  }
}

}  // namespace mpdata
}  // namespace tdc
