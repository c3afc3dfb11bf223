#include "../common/cuda_check.hpp"
#include "mpdata_fused.hpp"
#include "mpdata_fused_block.hpp"

namespace tdc {
namespace mpdata {
namespace {

// Spreads a region's points over the thread block; stages are separated by barriers.
struct CudaExec {
  template <class F>
  __device__ void region(int i0, int j0, int w, int h, F f) const {
    const int threads = blockDim.x * blockDim.y;
    for (int n = threadIdx.x + blockDim.x * threadIdx.y; n < w * h; n += threads) f(i0 + n % w, j0 + n / w);
  }
  __device__ void sync() const { __syncthreads(); }
};

template <bool FCT, int TX, int TY>
__global__ void __launch_bounds__(TX* TY)
    fused_kernel(fused::Geometry geo, Options o, Box box, const double* __restrict__ psi0,
                 const double* __restrict__ c1, const double* __restrict__ c2, const double* __restrict__ c3,
                 const double* __restrict__ g, double* __restrict__ out) {
  extern __shared__ double smem[];
  fused::fused_block<FCT, TX, TY>(CudaExec{}, geo, o, box, box.i0 + blockIdx.x * TX, box.j0 + blockIdx.y * TY, psi0, c1,
                                  c2, c3, g, out, smem);
}

template <bool FCT, int TX, int TY>
void launch(const Cells& s, const Options& o, Box box, const double* psi0, const double* c1, const double* c2,
            const double* c3, const double* g, double* out, cudaStream_t st) {
  using P = fused::Plan<FCT, TX, TY>;
  const std::size_t bytes = sizeof(double) * P::doubles;
  // More than 48 KB of dynamic shared memory must be allowed per kernel and per device; the call is
  // cheap beside the kernel, so it is made on every launch (any device, any worker thread).
  TDC_CUDA_CHECK(
      cudaFuncSetAttribute(fused_kernel<FCT, TX, TY>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
  const dim3 grid((box.width() + TX - 1) / TX, (box.height() + TY - 1) / TY);
  fused_kernel<FCT, TX, TY><<<grid, dim3(TX, TY), bytes, st>>>(fused::Geometry{s.L, s.zb == ZBoundary::Periodic}, o,
                                                               box, psi0, c1, c2, c3, g, out);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void step2_fused_cuda(const Cells& s, const Options& o, Box box, const double* psi0, const double* c1, const double* c2,
                      const double* c3, const double* g, double* out, cudaStream_t st, FusedShape shape) {
  if (box.empty()) return;
  if (!fused_supported(o)) throw std::logic_error("step2_fused_cuda: only iord = 2");
  const bool wide = shape.tx == 32 && shape.ty == 8;
  if (o.fct) {
    if (wide)
      launch<true, 32, 8>(s, o, box, psi0, c1, c2, c3, g, out, st);
    else
      launch<true, 32, 4>(s, o, box, psi0, c1, c2, c3, g, out, st);
  } else {
    if (wide)
      launch<false, 32, 8>(s, o, box, psi0, c1, c2, c3, g, out, st);
    else
      launch<false, 32, 4>(s, o, box, psi0, c1, c2, c3, g, out, st);
  }
}

}  // namespace mpdata
}  // namespace tdc
