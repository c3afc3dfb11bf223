#include "scale_courant_kernel.hpp"

namespace tdc {

void scale_cpu(std::size_t n, double factor, const double* s, double* c) {
  for (std::size_t q = 0; q < n; ++q) c[q] = factor * s[q];
}

}  // namespace tdc
