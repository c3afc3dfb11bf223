// ieee_quotient evaluated on the device, for the agreement test against the host's n / d.
#include "codelets/common/ieee_quotient.hpp"
#include "ieee_quotient_probe.hpp"

namespace tdc_test {
namespace {
__global__ void quotient_kernel(const double* n, const double* d, double* q, int count) {
  const int t = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (t < count) q[t] = tdc::ieee_quotient(n[t], d[t]);
}
}  // namespace

void ieee_quotient_on_device(const double* n, const double* d, double* q, int count) {
  quotient_kernel<<<(count + 127) / 128, 128>>>(n, d, q, count);
}
}  // namespace tdc_test
