#include <cstring>

#include "snapshot_copy_kernel.hpp"

namespace tdc {

void snapshot_copy_cpu(std::size_t n, const double* src, double* dst) { std::memcpy(dst, src, n * sizeof(double)); }

}  // namespace tdc
