// The branch-free FP64 division of the CUDA MPDATA kernels against CUDA's a / b (and the CPU's), bit
// for bit, wherever it claims its fast path: random quotients of every kind, quotients close to a
// midpoint between two doubles (where a careless division rounds the wrong way), exact quotients, zero
// and tiny dividends, and special values.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#if defined(TASKDYCORE_HAVE_CUDA)
#include "device_array.hpp"
#include "divide_probe.hpp"
#endif

namespace {

#if !defined(TASKDYCORE_HAVE_CUDA)
TEST(CudaDivide, BranchFreeMatchesDivision) { GTEST_SKIP() << "built without CUDA (no nvcc): run on a CUDA build"; }
TEST(CudaDivide, FixupRecomputesTheCellsOffTheFastPath) {
  GTEST_SKIP() << "built without CUDA (no nvcc): run on a CUDA build";
}
#else

std::uint64_t bits(double x) {
  std::uint64_t u;
  std::memcpy(&u, &x, 8);
  return u;
}
double from_bits(std::uint64_t u) {
  double x;
  std::memcpy(&x, &u, 8);
  return x;
}
// sign, biased exponent and 52 random mantissa bits
double with_exponent(std::mt19937_64& g, int biased) {
  return from_bits((g() & 0x800FFFFFFFFFFFFFull) | (std::uint64_t(biased) << 52));
}

struct Samples {
  std::vector<double> a, b;
  void add(double x, double y) {
    a.push_back(x);
    b.push_back(y);
  }
};

// Every sample where the divider claims its fast path gives the bits of a / b; returns the share on it.
double check(const Samples& s, const char* what) {
  const tdc_test::DivideProbe p = tdc_test::divide_on_device(s.a, s.b);
  std::size_t fast = 0, wrong = 0, cpu_differs = 0;
  for (std::size_t i = 0; i < s.a.size(); ++i) {
    const double cpu = s.a[i] / s.b[i];
    if (!(std::isnan(cpu) && std::isnan(p.exact[i])) && bits(cpu) != bits(p.exact[i])) ++cpu_differs;
    if (!p.on_fast_path[i]) continue;
    ++fast;
    if (bits(p.fast[i]) != bits(p.exact[i]) && wrong++ < 5)
      ADD_FAILURE() << what << ": " << std::hexfloat << s.a[i] << " / " << s.b[i] << " gave " << p.fast[i] << " not "
                    << p.exact[i];
  }
  EXPECT_EQ(wrong, 0u) << what;
  EXPECT_EQ(cpu_differs, 0u) << what << ": the device's a / b and the CPU's differ";
  return double(fast) / double(s.a.size());
}

TEST(CudaDivide, BranchFreeMatchesDivision) {
  if (!tdc_test::have_device()) GTEST_SKIP() << "no CUDA device on this machine: run on the GPU machine";
  std::mt19937_64 g(20261123);
  const std::size_t n = std::size_t(1) << 22;

  Samples usual;  // both operands within 2^+-100: the fast path must take (nearly) all
  for (std::size_t i = 0; i < n; ++i)
    usual.add(with_exponent(g, 923 + int(g() % 201)), with_exponent(g, 923 + int(g() % 201)));
  EXPECT_GT(check(usual, "usual exponents"), 0.9999);

  Samples tiny;  // dividends below 2^-967 (a diffusion front's): off the fast path, or right
  for (std::size_t i = 0; i < n; ++i) tiny.add(with_exponent(g, int(g() % 60)), with_exponent(g, 923 + int(g() % 201)));
  check(tiny, "tiny dividends");

  Samples any;  // every bit pattern: denormals, infinities and NaNs included
  for (std::size_t i = 0; i < n; ++i) any.add(from_bits(g()), from_bits(g()));
  check(any, "any bit pattern");

  Samples midpoint;  // a / b within about an ulp of a midpoint between two doubles
  for (std::size_t i = 0; i < n; ++i) {
    const double b = with_exponent(g, 1023 + int(g() % 41) - 20);
    const double q = with_exponent(g, 1023 + int(g() % 41) - 20);
    const long double m =
        (long double)q + (long double)(std::nextafter(std::fabs(q), INFINITY) - std::fabs(q)) / 2 * (q < 0 ? -1 : 1);
    const double a = double(m * (long double)b);
    for (int d = -1; d <= 1; ++d) midpoint.add(d == 0 ? a : std::nextafter(a, d * INFINITY), b);
  }
  EXPECT_GT(check(midpoint, "near midpoints"), 0.9999);

  Samples exact;  // short mantissas: a = q b exactly
  for (std::size_t i = 0; i < n; ++i) {
    const double q = std::ldexp(double(g() >> 38), int(g() % 60) - 30),
                 b = std::ldexp(double(g() >> 38), int(g() % 60) - 30);
    if (q != 0 && b != 0) exact.add(q * b, (g() & 1) ? b : -b);
  }
  EXPECT_GT(check(exact, "exact quotients"), 0.9999);

  Samples zeros;  // a zero over a normal divisor is on the fast path
  for (std::size_t i = 0; i < n / 16; ++i) zeros.add((g() & 1) ? 0.0 : -0.0, with_exponent(g, 1 + int(g() % 2046)));
  EXPECT_EQ(check(zeros, "zero dividends"), 1.0);

  Samples special;  // the edges of the domain and beyond
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> v = {0.0,
                           1.0,
                           3.0,
                           0.1,
                           DBL_MIN,
                           DBL_MAX,
                           DBL_TRUE_MIN,
                           inf,
                           nan,
                           std::ldexp(1.0, -967),
                           std::ldexp(1.0, -968),
                           std::ldexp(1.0, -966),
                           std::ldexp(1.0, 1017),
                           std::ldexp(1.0, 1016),
                           std::ldexp(1.0, 1018),
                           std::ldexp(1.0, -1022) * 1.5,
                           std::ldexp(1.0, 1023) * 1.9999,
                           std::nextafter(DBL_MIN, 0.0),
                           std::nextafter(1.0, 2.0),
                           std::nextafter(1.0, 0.0)};
  const std::size_t base = v.size();
  for (std::size_t i = 0; i < base; ++i) v.push_back(-v[i]);
  for (double x : v)
    for (double y : v) special.add(x, y);
  check(special, "special values");
}

// The fix-up list: cells off the fast path (tiny dividends here) recomputed from the list, or from
// the whole box when more were recorded than the list holds; the list is empty after each fix-up.
TEST(CudaDivide, FixupRecomputesTheCellsOffTheFastPath) {
  if (!tdc_test::have_device()) GTEST_SKIP() << "no CUDA device on this machine: run on the GPU machine";
  std::mt19937_64 g(7);
  const int w = 37, h = 21, nz = 9;
  std::vector<double> a(std::size_t(w) * h * nz), b(a.size());
  std::size_t off = 0;
  for (std::size_t n = 0; n < a.size(); ++n) {
    const bool tiny = g() % 4 == 0;
    off += tiny;
    a[n] = tiny ? with_exponent(g, int(g() % 40)) : with_exponent(g, 1023 + int(g() % 21) - 10);
    b[n] = with_exponent(g, 1023 + int(g() % 21) - 10);
  }
  for (unsigned capacity : {unsigned(a.size()), unsigned(off / 3)}) {  // the list, then its overflow
    const tdc_test::FixupProbe p = tdc_test::divide_with_fixup(a, b, w, h, nz, capacity, 3);
    std::size_t wrong = 0;
    for (std::size_t n = 0; n < a.size(); ++n) wrong += bits(p.q[n]) != bits(a[n] / b[n]);
    EXPECT_EQ(wrong, 0u) << "capacity " << capacity << ", " << off << " cells off the fast path";
    EXPECT_EQ(p.count_after, 0u) << "capacity " << capacity;
  }
}

#endif

}  // namespace
