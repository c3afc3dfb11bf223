#include "csr_pcg.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

namespace tdc {

CsrSystem assemble_csr(const ThinShell& shell) {
  const int nx = shell.params().nx, ny = shell.params().ny, nz = shell.params().nz;
  const double* c = shell.level_coefficients().data();
  const ColumnCouplings h = shell.couplings();
  CsrSystem s;
  s.columns = nx * ny;
  s.nz = nz;
  const int n = s.rows();
  s.row_ptr.reserve(n + 1);
  s.row_ptr.push_back(0);
  s.col.reserve(std::size_t(7) * n);
  s.val.reserve(std::size_t(7) * n);
  s.dl.resize(n);
  s.d.resize(n);
  s.du.resize(n);
  // Periodic in x and y; i and j may be one step outside [0, n).
  auto id = [&](int i, int j, int k) { return (i + nx) % nx + nx * ((j + ny) % ny + ny * k); };
  std::vector<std::pair<int, double>> entries;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const int row = id(i, j, k);
        const double dk = coef(c, kD, nz, k);
        const double diag = dk * coef(c, kC0, nz, k), up = dk * coef(c, kCb, nz, k), down = dk * coef(c, kCc, nz, k);
        entries = {{row, diag},
                   {id(i + 1, j, k), dk * h.ae},
                   {id(i - 1, j, k), dk * h.aw},
                   {id(i, j + 1, k), dk * h.an},
                   {id(i, j - 1, k), dk * h.as}};
        if (k + 1 < nz) entries.push_back({id(i, j, k + 1), up});  // cb = 0 at the top: no entry
        if (k > 0) entries.push_back({id(i, j, k - 1), down});     // cc = 0 at the bottom
        std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& [col, val] : entries) {
          // With nx or ny below 3 the east and west (or north and south) neighbours are one cell.
          if (s.col.size() > std::size_t(s.row_ptr.back()) && s.col.back() == col) {
            s.val.back() += val;
          } else {
            s.col.push_back(col);
            s.val.push_back(val);
          }
        }
        s.row_ptr.push_back(int(s.col.size()));
        s.dl[row] = down;  // cc and cb vanish at the bottom and top: dl and du end in zeros, as gtsv wants
        s.d[row] = diag;
        s.du[row] = up;
      }
  return s;
}

std::vector<double> global_rhs(const ThinShell& shell) {
  const int nx = shell.params().nx, ny = shell.params().ny, nz = shell.params().nz;
  std::vector<double> f;
  f.reserve(std::size_t(nx) * ny * nz);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) f.push_back(shell.rhs(i, j, k));
  return f;
}

namespace {

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (std::size_t n = 0; n < a.size(); ++n) s += a[n] * b[n];
  return s;
}

void spmv(const CsrSystem& s, const std::vector<double>& x, std::vector<double>& y) {
  for (int r = 0; r < s.rows(); ++r) {
    double v = 0.0;
    for (int e = s.row_ptr[r]; e < s.row_ptr[r + 1]; ++e) v += s.val[e] * x[s.col[e]];
    y[r] = v;
  }
}

// LU factorisation of every column's tridiagonal block, in place, once in setup (as the paper's
// LAPACK gttrf; each preconditioner apply is then the two substitutions of gttrs): dl becomes the
// multipliers, d the pivots, du is kept. No pivoting: the blocks are strictly diagonally dominant.
void factorise(CsrSystem& s) {
  const std::size_t C = s.columns;
  for (int k = 1; k < s.nz; ++k)
    for (std::size_t c = k * C; c < (k + 1) * C; ++c) {
      s.dl[c] /= s.d[c - C];
      s.d[c] -= s.dl[c] * s.du[c - C];
    }
}

// z = M^-1 r with the factors; all columns advance level by level, so the inner loops are contiguous.
void precondition(const CsrSystem& s, const std::vector<double>& r, std::vector<double>& z) {
  const std::size_t C = s.columns, top = (s.nz - 1) * C;
  std::copy(r.begin(), r.begin() + C, z.begin());
  for (std::size_t c = C; c < r.size(); ++c) z[c] = r[c] - s.dl[c] * z[c - C];
  for (std::size_t c = top; c < r.size(); ++c) z[c] /= s.d[c];
  for (std::size_t c = top; c-- > 0;) z[c] = (z[c] - s.du[c] * z[c + C]) / s.d[c];
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::vector<double> csr_apply_for_test(const ThinShell& shell, const std::vector<double>& x) {
  const CsrSystem s = assemble_csr(shell);
  std::vector<double> y(s.rows());
  spmv(s, x, y);
  return y;
}

CsrPcgResult csr_pcg_cpu(const ThinShell& shell, int iterations) {
  CsrPcgResult res;
  const auto t0 = std::chrono::steady_clock::now();
  CsrSystem s = assemble_csr(shell);
  factorise(s);
  res.setup_ms = ms_since(t0);
  res.nnz = double(s.val.size());

  const std::size_t n = s.rows();
  std::vector<double> u(n, 0.0), r = global_rhs(shell), z(n), p(n), q(n);
  precondition(s, r, z);
  p = z;
  double rz = dot(r, z);
  res.residual_history.push_back(std::sqrt(dot(r, r)));
  const auto t1 = std::chrono::steady_clock::now();
  for (int it = 0; it < iterations; ++it) {
    spmv(s, p, q);
    const double alpha = rz / dot(p, q);
    for (std::size_t m = 0; m < n; ++m) {
      u[m] += alpha * p[m];  // the solution is not returned, but its update is part of an iteration's cost
      r[m] -= alpha * q[m];
    }
    precondition(s, r, z);
    const double rz_new = dot(r, z), beta = rz_new / rz;
    rz = rz_new;
    for (std::size_t m = 0; m < n; ++m) p[m] = z[m] + beta * p[m];
    res.residual_history.push_back(std::sqrt(dot(r, r)));
  }
  res.ms_per_iteration = iterations > 0 ? ms_since(t1) / iterations : 0.0;
  res.iterations = iterations;
  return res;
}

}  // namespace tdc
