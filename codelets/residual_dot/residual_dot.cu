#include "../dot_partial/dot_partial.cuh"
#include "../vector_update/vector_update_kernel.hpp"
#include "residual_dot_kernel.hpp"

namespace tdc {
namespace {

// r <- r - s q, stored; the new r is the cell's x, y and z.
struct UpdateCells {
  TileLayout L;
  const double* __restrict__ st;
  int scalar;
  const double* __restrict__ q;
  double* __restrict__ r;
  __device__ void operator()(int i, int j, int k, double& x, double& y, double& z) const {
    const std::ptrdiff_t o = L.at(i, j, k);
    x = y = z = axpby(scalar_of(st, scalar, -1.0), q[o], 1.0, r[o]);
    r[o] = x;
  }
};

// r <- f - A u, stored; the new r is the cell's x, y and z.
template <int S>
struct ResidualCells {
  TileLayout L;
  ColumnCouplings h;
  const double* __restrict__ coef;
  const double* __restrict__ u;
  const double* __restrict__ f;
  double* __restrict__ r;
  __device__ void operator()(int i, int j, int k, double& x, double& y, double& z) const {
    const std::ptrdiff_t o = L.at(i, j, k);
    x = y = z = axpby(1.0, f[o], -1.0, apply_cell(L, with_strides<S>(h), coef, u, i, j, k));
    r[o] = x;
  }
};

}  // namespace

void residual_update_dot_cuda(const TileLayout& L, const double* st, int skip_from, int scalar, const double* q,
                              double* r, void* groups, double* out, cudaStream_t stream) {
  launch_dot_items(L, st, skip_from, nullptr, UpdateCells{L, st, scalar, q, r}, groups, out, stream);
}

void elliptic_residual_dot_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                                int skip_from, const double* u, const double* f, double* r, void* groups, double* out,
                                cudaStream_t stream) {
  with_stride_constant(h, [&](auto S) {
    launch_dot_items(L, st, skip_from, nullptr, ResidualCells<decltype(S)::value>{L, h, coef, u, f, r}, groups, out,
                     stream);
  });
}

}  // namespace tdc
