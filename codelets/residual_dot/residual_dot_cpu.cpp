#include "../dot_partial/dot_partial_kernel.hpp"
#include "../elliptic_apply/elliptic_apply_kernel.hpp"
#include "../vector_update/vector_update_kernel.hpp"
#include "residual_dot_kernel.hpp"

namespace tdc {

// The CPU runs the separate loops: the same arithmetic in the same order as the fused CUDA pass.
void residual_update_dot_cpu(const TileLayout& L, const double* st, int skip_from, int scalar, const double* q,
                             double* r, double* out) {
  vector_update_cpu(VectorUpdateArgs{L, skip_from, scalar, -1, -1.0, 1.0}, st, q, r);
  dot_partial_cpu(L, st, skip_from, r, r, r, out);
}

void elliptic_residual_dot_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                               int skip_from, const double* u, const double* f, double* r, double* out) {
  elliptic_apply_cpu(L, h, coef, st, skip_from, u, r);
  vector_update_cpu(VectorUpdateArgs{L, skip_from, -1, -1, 1.0, -1.0}, st, f, r);
  dot_partial_cpu(L, st, skip_from, r, r, r, out);
}

}  // namespace tdc
