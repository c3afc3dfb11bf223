// vector_update: y <- a x + b y over a tile's interior, where a and b are constants or solver scalars
// (a = sa * state[ia] when ia >= 0, else sa; the same for b). With b == 0, y <- a x (y not read).
#pragma once
#include "../common/tile_layout.hpp"
#include "../solver_scalars/solver_state.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

struct VectorUpdateArgs {
  TileLayout L;
  int skip_from = 2;
  int ia = -1, ib = -1;
  double sa = 1.0, sb = 1.0;
};

TDC_HD double scalar_of(const double* st, int index, double factor) { return index >= 0 ? factor * st[index] : factor; }
// The update of one cell (every form of it calls this, so that they agree bit for bit).
TDC_HD double axpby(double a, double x, double b, double y) { return b == 0.0 ? a * x : a * x + b * y; }
// PCG's residual update r <- r - alpha q.
TDC_HD VectorUpdateArgs residual_update_args(const TileLayout& L, int skip_from) {
  return VectorUpdateArgs{L, skip_from, state::kAlpha, -1, -1.0, 1.0};
}

void vector_update_cpu(const VectorUpdateArgs& a, const double* st, const double* x, double* y);
#if defined(TASKDYCORE_HAVE_CUDA)
void vector_update_cuda(const VectorUpdateArgs& a, const double* st, const double* x, double* y, cudaStream_t stream);
// The kernel alone, without the gate (for a launch inside another gated graph's capture).
void vector_update_launch_cuda(const VectorUpdateArgs& a, const double* st, const double* x, double* y,
                               cudaStream_t stream);
#endif

}  // namespace tdc
