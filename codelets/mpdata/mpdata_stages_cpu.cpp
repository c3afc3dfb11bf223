#include "mpdata_stages.hpp"

namespace tdc {
namespace mpdata {

void upwind_cpu(const Cells& s, Box box, const double* psi, const double* c1, const double* c2,
                const double* c3, const double* g, double* out, bool linear) {
  for (int k = 0; k < s.L.nz; ++k)
    for (int j = box.j0; j < box.j1; ++j)
      for (int i = box.i0; i < box.i1; ++i)
        out[s.at(i, j, k)] = upwind_cell(s, psi, c1, c2, c3, g, i, j, k, linear);
}

void antidiffusive_cpu(const Cells& s, const Options& o, Box box, const double* psi, const double* c1,
                       const double* c2, const double* c3, const double* g, double* v1, double* v2,
                       double* v3) {
  for (int k = 0; k < s.L.nz; ++k)
    for (int j = box.j0; j < box.j1; ++j)
      for (int i = box.i0; i < box.i1; ++i) {
        const FaceVelocity v = antidiffusive_faces(s, o, psi, c1, c2, c3, g, i, j, k);
        const std::ptrdiff_t n = s.at(i, j, k);
        v1[n] = v.x;
        v2[n] = v.y;
        v3[n] = v.z;
      }
}

void fct_beta_cpu(const Cells& s, const Options& o, Box box, const double* psi0, const double* psi1,
                  const double* psi, const double* v1, const double* v2, const double* v3,
                  const double* g, double* up, double* down) {
  for (int k = 0; k < s.L.nz; ++k)
    for (int j = box.j0; j < box.j1; ++j)
      for (int i = box.i0; i < box.i1; ++i) {
        const Beta b = fct_beta_cell(s, o, psi0, psi1, psi, v1, v2, v3, g, i, j, k);
        up[s.at(i, j, k)] = b.up;
        down[s.at(i, j, k)] = b.down;
      }
}

void fct_limit_cpu(const Cells& s, Box box, const double* up, const double* down, double* v1,
                   double* v2, double* v3) {
  for (int k = 0; k < s.L.nz; ++k) {
    const int kb = s.below(k);
    const bool lid = (k == 0 && s.zb == ZBoundary::Rigid);
    for (int j = box.j0; j < box.j1; ++j)
      for (int i = box.i0; i < box.i1; ++i) {
        const std::ptrdiff_t n = s.at(i, j, k), w = s.at(i - 1, j, k), so = s.at(i, j - 1, k);
        v1[n] = fct_limit_face(v1[n], up[w], down[w], up[n], down[n]);
        v2[n] = fct_limit_face(v2[n], up[so], down[so], up[n], down[n]);
        if (!lid) {
          const std::ptrdiff_t b = s.at(i, j, kb);
          v3[n] = fct_limit_face(v3[n], up[b], down[b], up[n], down[n]);
        }
      }
  }
}

}  // namespace mpdata
}  // namespace tdc
