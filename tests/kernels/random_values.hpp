// Uniform random values for the kernel tests, the same sequence for a seed on every machine.
#pragma once
#include <cstddef>
#include <random>
#include <vector>

namespace tdc_test {

inline std::vector<double> random_values(std::size_t n, unsigned seed, double lo = -1.0, double hi = 1.0) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> f(n);
  for (double& x : f) x = u(g);
  return f;
}

}  // namespace tdc_test
