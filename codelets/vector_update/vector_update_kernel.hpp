// vector_update: y <- a x + b y over a tile's interior, where a and b are constants or solver scalars
// (a = sa * state[ia] when ia >= 0, else sa; the same for b). With b == 0, y <- a x (y not read).
#pragma once
#include "../common/tile_layout.hpp"

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

void vector_update_cpu(const VectorUpdateArgs& a, const double* st, const double* x, double* y);
#if defined(TASKDYCORE_HAVE_CUDA)
void vector_update_cuda(const VectorUpdateArgs& a, const double* st, const double* x, double* y, cudaStream_t stream);
#endif

}  // namespace tdc
