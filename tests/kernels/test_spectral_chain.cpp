// The chain solve of the spectral preconditioner's y pass (spectral_chain_solve.hpp): exact to
// round-off against a long-double reference, the pseudo-inverse where singular, and bitwise the same
// whole or split into aligned parts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "codelets/spectral_precon/spectral_chain_solve.hpp"
#include "random_values.hpp"

namespace {

using namespace tdc;

ChainRow<> row(double a, double sigma) {
  ChainRow<> r;
  r.a = a;
  r.b = sigma - 2.0 * a;
  r.w = 0.75 / r.b;
  r.singular = sigma == 0.0;
  return r;
}

// a u[q-1] + b u[q] + a u[q+1] - 0.75 f[q] in long double, cyclically.
std::vector<long double> residual(const ChainRow<>& r, const std::vector<double>& u, const std::vector<double>& f) {
  const int n = int(u.size());
  std::vector<long double> res(n);
  for (int q = 0; q < n; ++q)
    res[q] = (long double)r.a * u[(q + n - 1) % n] + (long double)r.b * u[q] + (long double)r.a * u[(q + 1) % n] -
             0.75L * f[q];
  return res;
}

std::vector<double> solve_whole(const ChainRow<>& r, std::vector<double> f) {
  const int n = int(f.size());
  std::vector<double> u(n);
  chain_solve_whole(ArrayPoints<>{f.data()}, ArrayPoints<>{u.data()}, n, r);
  return u;
}

TEST(SpectralChain, SolvesToRoundOff) {
  for (int n : {1, 2, 4, 8, 16, 32, 256, 1024})
    for (double sigma : {-3.0, -0.5, -1e-3}) {
      const ChainRow<> r = row(0.45, sigma);
      const std::vector<double> f = tdc_test::random_values(n, 5 + n);
      const std::vector<double> u = solve_whole(r, f);
      const std::vector<long double> res = residual(r, u, f);
      long double worst = 0, scale = 0;  // (the backward error: against |A| |u| as well as |f|)
      for (int q = 0; q < n; ++q) {
        worst = std::max(worst, std::fabs(res[q]));
        scale = std::max({scale, std::fabs(0.75L * f[q]), (std::fabs(r.b) + 2.0L * std::fabs(r.a)) * std::fabs(u[q])});
      }
      EXPECT_LT(double(worst / scale), 1e-14) << "n " << n << ", sigma " << sigma;
    }
}

TEST(SpectralChain, IsThePseudoInverseWhereSingular) {
  for (int n : {1, 2, 8, 64, 1024}) {
    const ChainRow<> r = row(0.45, 0.0);
    const std::vector<double> f = tdc_test::random_values(n, 17 + n);
    const std::vector<double> u = solve_whole(r, f);
    long double f_mean = 0, u_mean = 0, u_max = 0;
    for (int q = 0; q < n; ++q) {
      f_mean += f[q];
      u_mean += u[q];
      u_max = std::max(u_max, std::fabs((long double)u[q]));
    }
    f_mean /= n;
    u_mean /= n;
    EXPECT_LT(double(std::fabs(u_mean)), 1e-13 * double(u_max + 1)) << "n " << n;
    std::vector<double> centred(f);
    for (double& v : centred) v = double(v - f_mean);
    const std::vector<long double> res = residual(r, u, centred);
    for (int q = 0; q < n; ++q) EXPECT_LT(double(std::fabs(res[q])), 1e-12 * double(n)) << "n " << n << ", q " << q;
  }
}

// Parts of a chain as the split chain passes run them: each part's leaves and way up, its ends out;
// then every part's top from all ends and its way down.
std::vector<double> solve_in_parts(const ChainRow<>& r, const std::vector<double>& f, int parts) {
  const int whole = int(f.size()), n = whole / parts;
  std::vector<double> u(f), ends(2 * parts);
  ChainLevels<> c;
  chain_levels(r, spectral_log2(whole), c);
  for (int g = 0; g < parts; ++g) {
    const ArrayPoints<> part{u.data() + g * n};
    chain_part_up(part, part, n, c, r.w, 0.0);
    ends[2 * g] = part(0);
    ends[2 * g + 1] = part(n - 1);
  }
  for (int g = 0; g < parts; ++g) {
    std::vector<double> e(ends);
    const EndSlots s = chain_top(e.data(), parts, n, c);
    const ArrayPoints<> part{u.data() + g * n};
    part(0) = s.left(g);
    part(n - 1) = s.right(g);
    chain_part_down(part, n, c, double(s.right((g + parts - 1) % parts)), double(s.left((g + 1) % parts)));
  }
  return u;
}

TEST(SpectralChain, PartsGiveTheWholeChainsBits) {
  for (int whole : {2, 8, 64, 256, 1024})
    for (double sigma : {-2.0, -1e-3})
      for (int parts = 2; parts <= whole && parts <= 16; parts *= 2) {
        const ChainRow<> r = row(0.45, sigma);
        const std::vector<double> f = tdc_test::random_values(whole, 3 + whole);
        const std::vector<double> a = solve_whole(r, f), b = solve_in_parts(r, f, parts);
        for (int q = 0; q < whole; ++q)
          ASSERT_EQ(a[q], b[q]) << whole << " points in " << parts << " parts, sigma " << sigma << ", point " << q;
      }
}

}  // namespace
