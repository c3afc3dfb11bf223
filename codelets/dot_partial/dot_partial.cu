#include "dot_partial.cuh"

namespace tdc {
namespace {

struct ReadCells {
  TileLayout L;
  const double* __restrict__ x;
  const double* __restrict__ y;
  const double* __restrict__ z;
  __device__ void operator()(int i, int j, int k, double& xv, double& yv, double& zv) const {
    const std::ptrdiff_t o = L.at(i, j, k);
    xv = x[o];
    yv = y[o];
    zv = z[o];
  }
};

}  // namespace

void dot_partial_cuda(const TileLayout& L, const double* st, int skip_from, const double* x, const double* y,
                      const double* z, void* groups, double* out, cudaStream_t stream, const double* skip) {
  launch_dot_items(L, st, skip_from, skip, ReadCells{L, x, y, z}, groups, out, stream);
}

}  // namespace tdc
