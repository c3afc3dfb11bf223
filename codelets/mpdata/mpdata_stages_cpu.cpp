#include "mpdata_stages.hpp"

namespace tdc {
namespace mpdata {

void upwind_cpu(const Cells& s, Box box, const double* psi, const double* c1, const double* c2,
                const double* c3, const double* g, double* out, bool linear) {
  const TileArray P = s(psi), C1 = s(c1), C2 = s(c2), C3 = s(c3), G = s(g);
  for (int k = 0; k < s.L.nz; ++k) {
    const Vert v = s.vert(k);
    for (int j = box.j0; j < box.j1; ++j)
      for (int i = box.i0; i < box.i1; ++i) out[s.L.at(i, j, k)] = upwind_cell(v, P, C1, C2, C3, G, i, j, linear);
  }
}

void antidiffusive_cpu(const Cells& s, const Options& o, Box box, const double* psi, const double* c1,
                       const double* c2, const double* c3, const double* g, double* v1, double* v2,
                       double* v3) {
  const TileArray P = s(psi), C1 = s(c1), C2 = s(c2), C3 = s(c3), G = s(g);
  for (int k = 0; k < s.L.nz; ++k) {
    const Vert v = s.vert(k);
    for (int j = box.j0; j < box.j1; ++j)
      for (int i = box.i0; i < box.i1; ++i) {
        const FaceVelocity w = antidiffusive_faces(v, o, P, C1, C2, C3, G, i, j);
        const std::ptrdiff_t n = s.L.at(i, j, k);
        v1[n] = w.x;
        v2[n] = w.y;
        v3[n] = w.z;
      }
  }
}

void fct_beta_cpu(const Cells& s, const Options& o, Box box, const double* psi0, const double* psi1,
                  const double* psi, const double* v1, const double* v2, const double* v3,
                  const double* g, double* up, double* down) {
  const TileArray P0 = s(psi0), P1 = s(psi1), P = s(psi), V1 = s(v1), V2 = s(v2), V3 = s(v3), G = s(g);
  for (int k = 0; k < s.L.nz; ++k) {
    const Vert v = s.vert(k);
    for (int j = box.j0; j < box.j1; ++j)
      for (int i = box.i0; i < box.i1; ++i) {
        const Beta b = fct_beta_cell(v, o, P0, P1, P, V1, V2, V3, G, i, j);
        up[s.L.at(i, j, k)] = b.up;
        down[s.L.at(i, j, k)] = b.down;
      }
  }
}

void fct_limit_cpu(const Cells& s, Box box, const double* up, const double* down, double* v1,
                   double* v2, double* v3) {
  for (int k = 0; k < s.L.nz; ++k) {
    const Vert v = s.vert(k);
    for (int j = box.j0; j < box.j1; ++j)
      for (int i = box.i0; i < box.i1; ++i) {
        const std::ptrdiff_t n = s.L.at(i, j, k), w = s.L.at(i - 1, j, k), so = s.L.at(i, j - 1, k);
        v1[n] = fct_limit_face(v1[n], up[w], down[w], up[n], down[n]);
        v2[n] = fct_limit_face(v2[n], up[so], down[so], up[n], down[n]);
        if (!v.lid_below) {
          const std::ptrdiff_t b = s.L.at(i, j, v.kb);
          v3[n] = fct_limit_face(v3[n], up[b], down[b], up[n], down[n]);
        }
      }
  }
}

}  // namespace mpdata
}  // namespace tdc
