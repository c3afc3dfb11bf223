// A deliberately plain MPDATA (iord passes, optional FCT and infinite gauge) on one periodic
// global grid: face arrays, explicit fluxes, no tiles, no regions, no shared code with the
// production kernels. The production pipeline must agree with it to round-off.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

namespace ref {

struct Grid {
  int nx, ny, nz;
  bool rigid;  // rigid lids in z, else periodic
  int wi(int i) const { return (i % nx + nx) % nx; }
  int wj(int j) const { return (j % ny + ny) % ny; }
  int wk(int k) const { return rigid ? std::clamp(k, 0, nz - 1) : (k % nz + nz) % nz; }
  std::size_t n(int i, int j, int k) const { return (std::size_t(wk(k)) * ny + wj(j)) * nx + wi(i); }
};

using Field = std::vector<double>;

// Face arrays: x(i,j,k) is face i-1/2 etc.; z faces of rigid lids are zero.
struct Faces {
  Field x, y, z;
};

inline double zface(const Grid& g, const Field& w, int i, int j, int k) {
  if (g.rigid && (k == 0 || k == g.nz)) return 0.0;
  return w[g.n(i, j, k)];
}

inline Field upwind(const Grid& g, const Field& psi, const Faces& c, const Field& G, bool linear) {
  auto flux = [&](double l, double r, double u) { return linear ? u : std::max(u, 0.0) * l + std::min(u, 0.0) * r; };
  Field out(psi.size());
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        const double p = psi[g.n(i, j, k)];
        const double div =
            flux(p, psi[g.n(i + 1, j, k)], c.x[g.n(i + 1, j, k)]) - flux(psi[g.n(i - 1, j, k)], p, c.x[g.n(i, j, k)]) +
            flux(p, psi[g.n(i, j + 1, k)], c.y[g.n(i, j + 1, k)]) - flux(psi[g.n(i, j - 1, k)], p, c.y[g.n(i, j, k)]) +
            flux(p, psi[g.n(i, j, k + 1)], zface(g, c.z, i, j, k + 1)) -
            flux(psi[g.n(i, j, k - 1)], p, zface(g, c.z, i, j, k));
        out[g.n(i, j, k)] = p - div / G[g.n(i, j, k)];
      }
  return out;
}

// Antidiffusive velocity through the face between cells a (lower) and b (upper) along one axis,
// with the two transverse axes given by unit offsets; `c` is the previous velocity.
inline Faces antidiffusive(const Grid& g, const Field& psi, const Faces& c, const Field& G, bool iga, double eps) {
  auto P = [&](int i, int j, int k) { return iga ? psi[g.n(i, j, k)] : std::fabs(psi[g.n(i, j, k)]); };
  auto A = [&](double lo, double hi) { return iga ? 0.5 * (hi - lo) : (hi - lo) / (hi + lo + eps); };
  auto B = [&](double a1, double a2, double b1, double b2) {
    return iga ? 0.125 * (a1 + a2 - b1 - b2) : 0.5 * (a1 + a2 - b1 - b2) / (a1 + a2 + b1 + b2 + eps);
  };
  auto cz = [&](int i, int j, int k) { return zface(g, c.z, i, j, k); };
  Faces v{Field(psi.size()), Field(psi.size()), Field(psi.size())};
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        const std::size_t n = g.n(i, j, k);
        {  // x face between i-1 and i
          const double u = c.x[n], gf = 0.5 * (G[g.n(i - 1, j, k)] + G[n]);
          const double vb = 0.25 * (c.y[g.n(i - 1, j, k)] + c.y[g.n(i - 1, j + 1, k)] + c.y[n] + c.y[g.n(i, j + 1, k)]);
          const double wb = 0.25 * (cz(i - 1, j, k) + cz(i - 1, j, k + 1) + cz(i, j, k) + cz(i, j, k + 1));
          v.x[n] = (std::fabs(u) - u * u / gf) * A(P(i - 1, j, k), P(i, j, k)) -
                   u * vb * B(P(i, j + 1, k), P(i - 1, j + 1, k), P(i, j - 1, k), P(i - 1, j - 1, k)) / gf -
                   u * wb * B(P(i, j, k + 1), P(i - 1, j, k + 1), P(i, j, k - 1), P(i - 1, j, k - 1)) / gf;
        }
        {  // y face between j-1 and j
          const double u = c.y[n], gf = 0.5 * (G[g.n(i, j - 1, k)] + G[n]);
          const double ub = 0.25 * (c.x[g.n(i, j - 1, k)] + c.x[g.n(i + 1, j - 1, k)] + c.x[n] + c.x[g.n(i + 1, j, k)]);
          const double wb = 0.25 * (cz(i, j - 1, k) + cz(i, j - 1, k + 1) + cz(i, j, k) + cz(i, j, k + 1));
          v.y[n] = (std::fabs(u) - u * u / gf) * A(P(i, j - 1, k), P(i, j, k)) -
                   u * ub * B(P(i + 1, j, k), P(i + 1, j - 1, k), P(i - 1, j, k), P(i - 1, j - 1, k)) / gf -
                   u * wb * B(P(i, j, k + 1), P(i, j - 1, k + 1), P(i, j, k - 1), P(i, j - 1, k - 1)) / gf;
        }
        if (g.rigid && k == 0) {
          v.z[n] = 0.0;
        } else {  // z face between k-1 and k
          const double u = c.z[n], gf = 0.5 * (G[g.n(i, j, k - 1)] + G[n]);
          const double ub = 0.25 * (c.x[g.n(i, j, k - 1)] + c.x[g.n(i + 1, j, k - 1)] + c.x[n] + c.x[g.n(i + 1, j, k)]);
          const double vb = 0.25 * (c.y[g.n(i, j, k - 1)] + c.y[g.n(i, j + 1, k - 1)] + c.y[n] + c.y[g.n(i, j + 1, k)]);
          v.z[n] = (std::fabs(u) - u * u / gf) * A(P(i, j, k - 1), P(i, j, k)) -
                   u * ub * B(P(i + 1, j, k), P(i + 1, j, k - 1), P(i - 1, j, k), P(i - 1, j, k - 1)) / gf -
                   u * vb * B(P(i, j + 1, k), P(i, j + 1, k - 1), P(i, j - 1, k), P(i, j - 1, k - 1)) / gf;
        }
      }
  return v;
}

// Smolarkiewicz & Grabowski (1990) limiter: bounds from psi0 and the donor-cell psi1 over the cell
// and its six face neighbours.
inline void limit(const Grid& g, const Field& psi0, const Field& psi1, const Field& psi, Faces& v, const Field& G,
                  bool iga, double eps) {
  const std::size_t N = psi.size();
  Field up(N), dn(N);
  auto flux = [&](double l, double r, double u) { return iga ? u : std::max(u, 0.0) * l + std::min(u, 0.0) * r; };
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        const std::size_t n = g.n(i, j, k);
        const std::size_t nb[7] = {n,
                                   g.n(i - 1, j, k),
                                   g.n(i + 1, j, k),
                                   g.n(i, j - 1, k),
                                   g.n(i, j + 1, k),
                                   g.n(i, j, k - 1),
                                   g.n(i, j, k + 1)};
        double mx = -1e300, mn = 1e300;
        for (std::size_t q : nb) {
          mx = std::max({mx, psi0[q], psi1[q]});
          mn = std::min({mn, psi0[q], psi1[q]});
        }
        const double p = psi[n];
        const double f[6] = {flux(psi[nb[1]], p, v.x[n]),
                             flux(p, psi[nb[2]], v.x[g.n(i + 1, j, k)]),
                             flux(psi[nb[3]], p, v.y[n]),
                             flux(p, psi[nb[4]], v.y[g.n(i, j + 1, k)]),
                             flux(psi[nb[5]], p, zface(g, v.z, i, j, k)),
                             flux(p, psi[nb[6]], zface(g, v.z, i, j, k + 1))};
        double in = 0, out = 0;
        for (int d = 0; d < 3; ++d) {
          in += std::max(f[2 * d], 0.0) - std::min(f[2 * d + 1], 0.0);
          out += std::max(f[2 * d + 1], 0.0) - std::min(f[2 * d], 0.0);
        }
        up[n] = (mx - p) * G[n] / (in + eps);
        dn[n] = (p - mn) * G[n] / (out + eps);
      }
  auto lim = [&](double u, std::size_t lo, std::size_t hi) {
    return std::max(u, 0.0) * std::min({1.0, dn[lo], up[hi]}) + std::min(u, 0.0) * std::min({1.0, up[lo], dn[hi]});
  };
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        const std::size_t n = g.n(i, j, k);
        v.x[n] = lim(v.x[n], g.n(i - 1, j, k), n);
        v.y[n] = lim(v.y[n], g.n(i, j - 1, k), n);
        if (!(g.rigid && k == 0)) v.z[n] = lim(v.z[n], g.n(i, j, k - 1), n);
      }
}

inline Field mpdata_step(const Grid& g, const Field& psi0, const Faces& c, const Field& G, int iord, bool fct, bool iga,
                         double eps = 1e-15) {
  Field psi1 = upwind(g, psi0, c, G, false);
  Field cur = psi1;
  Faces vel = c;
  for (int pass = 1; pass < iord; ++pass) {
    Faces v = antidiffusive(g, cur, vel, G, iga, eps);
    if (fct) limit(g, psi0, psi1, cur, v, G, iga, eps);
    cur = upwind(g, cur, v, G, iga);
    vel = v;
  }
  return cur;
}

}  // namespace ref
