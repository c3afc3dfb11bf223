#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "spectral_precon_kernel.hpp"

namespace tdc {
namespace {

bool power_of_two(int n, int most) { return n >= 2 && n <= most && (n & (n - 1)) == 0; }

// The levels in cycle order (each cycle walked from its lowest level), or empty with `why` set.
std::vector<int> vertical_cycles(const ColumnCouplings& h, int nz, int& lc, std::string& why) {
  std::vector<int> order;
  std::vector<bool> seen(nz, false);
  lc = 0;
  for (int start = 0; start < nz; ++start) {
    if (seen[start]) continue;
    int prev = -1, cur = start, len = 0;
    do {
      if (seen[cur] || len >= nz) {
        why = "the vertical couplings do not form cycles";
        return {};
      }
      seen[cur] = true;
      order.push_back(cur);
      ++len;
      const int up = level_above(h, nz, cur), down = level_below(h, nz, cur);
      const int next = prev < 0 || up != prev ? up : down;
      if ((next != up && next != down) || (prev >= 0 && prev != up && prev != down)) {
        why = "the vertical couplings do not form cycles";
        return {};
      }
      prev = cur;
      cur = next;
    } while (cur != start);
    if (lc != 0 && len != lc) {
      why = "the vertical cycles differ in length";
      return {};
    }
    lc = len;
  }
  if (!power_of_two(lc, kMaxSpectralCycle)) {
    why = "the vertical cycle length " + std::to_string(lc) + " is not a power of two in [2, " +
          std::to_string(kMaxSpectralCycle) + "]";
    return {};
  }
  return order;
}

bool constant(const std::vector<double>& c, int vec, int nz) {
  for (int k = 1; k < nz; ++k)
    if (c[std::size_t(vec) * nz + k] != c[std::size_t(vec) * nz]) return false;
  return true;
}

// Whether the vertical part is a symmetric circulant on every cycle (constant level vectors, equal
// up and down couplings), so that the vertical transform and the symbol invert it; else each cycle
// is solved directly (spectral_column_solve.hpp).
bool transformable_vertically(const std::vector<double>& coef, int nz) {
  for (int v : {kC0, kCb, kCc, kD})
    if (!constant(coef, v, nz)) return false;
  return coef[std::size_t(kCb) * nz] == coef[std::size_t(kCc) * nz];
}

}  // namespace

std::string spectral_unsupported(int nx, int ny, int nz, const ColumnCouplings& h, const std::vector<double>& coef) {
  if (!power_of_two(nx, kMaxSpectralLength) || !power_of_two(ny, kMaxSpectralLength))
    return "nx and ny must be powers of two in [2, " + std::to_string(kMaxSpectralLength) + "]";
  if (long(nx) * ny * nz > (1L << 30)) return "more than 2^30 cells";
  if (nx % h.h != 0 || ny % h.h != 0) return "nx and ny must be multiples of the horizontal stride";
  if (h.ae != h.aw || h.an != h.as) return "the horizontal couplings are not symmetric";
  if (coef.size() != std::size_t(kLevelVectors) * nz) return "the level coefficients do not match nz";
  for (int k = 0; k < nz; ++k)
    if (coef[std::size_t(kD) * nz + k] == 0.0) return "the operator's factor d is 0 at level " + std::to_string(k);
  if (h.z_wrap != kWrapPeriodic && h.z_wrap != kWrapMirror) return "the vertical rule must be periodic or mirror";
  int lc = 0;
  std::string why;
  if (vertical_cycles(h, nz, lc, why).empty()) return why;
  return "";
}

SpectralPlan make_spectral_plan(int nx, int ny, int nz, const ColumnCouplings& h, const std::vector<double>& coef,
                                std::vector<double>& tab) {
  const std::string why = spectral_unsupported(nx, ny, nz, h, coef);
  if (!why.empty()) throw std::invalid_argument("spectral preconditioner: " + why);
  SpectralPlan p;
  p.nx = nx;
  p.ny = ny;
  p.nz = nz;
  std::string unused;
  const std::vector<int> order = vertical_cycles(h, nz, p.lc, unused);
  p.bx = spectral_log2(nx);
  p.by = spectral_log2(ny);
  p.bz = spectral_log2(p.lc);
  p.columns = transformable_vertically(coef, nz) ? 0 : 1;
  const double c0 = coef[std::size_t(kC0) * nz], cz = coef[std::size_t(kCb) * nz];
  if (!p.columns) {
    p.d = coef[std::size_t(kD) * nz];
    p.rest = c0 + 2.0 * (h.ae + h.an + cz);
    if (std::fabs(p.rest) <= 1e-12 * std::fabs(c0)) p.rest = 0.0;  // a pure Laplacian: its null space is exact
  } else {
    p.scale = 1.0 / (16.0 * double(nx) * double(ny));  // the four horizontal transforms' factor
    p.null_chains = 1;
    for (int k = 0; k < nz; ++k) {
      auto at = [&](int v) { return coef[std::size_t(v) * nz + k]; };
      const double row_sum = ((at(kC0) + 2.0 * (h.ae + h.an)) + at(kCb)) + at(kCc);
      if (std::fabs(row_sum) > 1e-12 * std::fabs(at(kC0))) p.null_chains = 0;
    }
  }
  tab.clear();
  const long double two_pi = 6.283185307179586476925286766559L;
  auto twiddles = [&](int n, long& cos_at, long& sin_at) {
    cos_at = long(tab.size());
    for (int k = 0; k < n / 2; ++k) tab.push_back(double(std::cos(two_pi * k / n)));
    sin_at = long(tab.size());
    for (int k = 0; k < n / 2; ++k) tab.push_back(double(-std::sin(two_pi * k / n)));
  };
  // a (2 cos(2 pi m s / n) - 2), with m s reduced mod n first so that the null modes give exactly 0.
  auto eigenvalues = [&](int n, int s, double a, long& at) {
    at = long(tab.size());
    for (int m = 0; m < n; ++m) {
      const long r = (long(m) * s) % n;
      tab.push_back(a * (2.0 * double(std::cos(two_pi * r / n)) - 2.0));
    }
  };
  twiddles(nx, p.cos_x, p.sin_x);
  twiddles(ny, p.cos_y, p.sin_y);
  twiddles(p.lc, p.cos_z, p.sin_z);
  eigenvalues(nx, h.h, h.ae, p.mu_x);
  eigenvalues(ny, h.h, h.an, p.mu_y);
  eigenvalues(p.lc, 1, cz, p.mu_z);
  p.level = long(tab.size());
  for (int k : order) tab.push_back(double(k));
  p.cycle_position = long(tab.size());
  tab.resize(tab.size() + nz);
  for (std::size_t g = 0; g < order.size(); ++g) tab[p.cycle_position + order[g]] = double(g % p.lc);
  if (!p.columns) {
    p.hy = h.h;
    p.chain_an = h.an;
    p.chain_scale = 1.0 / (16.0 * double(nx) * double(p.lc));
    std::vector<double> null_ids;  // (tab grows below)
    for (int k = 0; k < nz; ++k)
      for (int m = 0; m < nx; ++m)
        if ((tab[p.mu_x + m] + tab[p.mu_z + long(tab[p.cycle_position + k])]) + p.rest == 0.0)
          null_ids.push_back(double(m + long(nx) * k));
    p.null_lines = int(null_ids.size());
    p.null_line_ids = long(tab.size());
    tab.insert(tab.end(), null_ids.begin(), null_ids.end());
  }
  if (p.columns) {
    // Row t of a cycle in cycle order: which of its couplings reaches position t + 1 (the mirror
    // turns a chain around at the lids; a cycle of 2 has one neighbour, both couplings reach it).
    std::vector<double> lower, upper, diag, scale;
    for (std::size_t g = 0; g < order.size(); ++g) {
      const int k = order[g], t = int(g % p.lc);
      const int next = order[g - t + (t + 1) % p.lc];
      auto at = [&](int v) { return coef[std::size_t(v) * nz + k]; };
      const bool up_is_next = level_above(h, nz, k) == next;
      upper.push_back(up_is_next ? at(kCb) : at(kCc));
      lower.push_back(up_is_next ? at(kCc) : at(kCb));
      diag.push_back(at(kC0) + 2.0 * (h.ae + h.an));
      scale.push_back(p.scale / at(kD));
    }
    auto append = [&](const std::vector<double>& v, long& at) {
      at = long(tab.size());
      tab.insert(tab.end(), v.begin(), v.end());
    };
    append(lower, p.row_lower);
    append(upper, p.row_upper);
    append(diag, p.row_diag);
    append(scale, p.row_scale);
  }
  p.table_doubles = long(tab.size());
  return p;
}

}  // namespace tdc
