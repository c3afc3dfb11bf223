#include "../common/cuda_check.hpp"
#include "snapshot_copy_kernel.hpp"

namespace tdc {

void snapshot_copy_cuda(std::size_t n, const double* src, double* dst, cudaStream_t stream) {
  TDC_CUDA_CHECK(cudaMemcpyAsync(dst, src, n * sizeof(double), cudaMemcpyDeviceToDevice, stream));
}

}  // namespace tdc
