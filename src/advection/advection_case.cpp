#include "advection_case.hpp"

#include <algorithm>
#include <cmath>

namespace tdc {
namespace {

// Signed distance with the periodic minimum-image convention.
double periodic(double d, double length) { return d - length * std::nearbyint(d / length); }

double sq(double v) { return v * v; }

// LeVeque's deformational flow in the unit cube from two stream functions:
// u = dPsi3/dY + dPsi2/dZ, v = -dPsi3/dX, w = -dPsi2/dX.
double psi3(double X, double Y, double Z) {
  return sq(std::sin(M_PI * X)) * sq(std::sin(M_PI * Y)) * std::sin(2 * M_PI * Z) / M_PI;
}
double psi2(double X, double Y, double Z) {
  return sq(std::sin(M_PI * X)) * sq(std::sin(M_PI * Z)) * std::sin(2 * M_PI * Y) / M_PI;
}

}  // namespace

AdvectionCase::AdvectionCase(const AdvectionConfig& c) : cfg_(c) {}

double AdvectionCase::shape(double dx, double dy, double dz) const {
  const double r2 = sq(dx) + sq(dy) + (cfg_.shape_dims == 3 ? sq(dz) : 0.0);
  const double r = std::sqrt(r2) / cfg_.radius;
  const double bump = cfg_.shape == Shape::Cone ? std::max(0.0, 1.0 - r) : std::exp(-r * r);
  return cfg_.background + cfg_.amplitude * bump;
}

double AdvectionCase::initial(int gi, int gj, int k) const { return exact(gi, gj, k, 0.0); }

bool AdvectionCase::has_exact(double t) const {
  if (cfg_.flow != Flow::Deformational) return true;
  const double cycles = t / cfg_.period;
  return std::fabs(cycles - std::nearbyint(cycles)) < 1e-9;
}

double AdvectionCase::exact(int gi, int gj, int k, double t) const {
  const Grid& g = cfg_.grid;
  double px = x(gi), py = y(gj), pz = z(k);
  if (cfg_.flow == Flow::Translation) {
    px -= cfg_.velocity[0] * t;
    py -= cfg_.velocity[1] * t;
    pz -= cfg_.velocity[2] * t;
  } else if (cfg_.flow == Flow::Rotation) {  // rotate the point back by omega t about the centre
    const double a = -cfg_.omega * t, cx = cfg_.rotation_center[0], cy = cfg_.rotation_center[1];
    const double rx = px - cx, ry = py - cy;
    px = cx + std::cos(a) * rx - std::sin(a) * ry;
    py = cy + std::sin(a) * rx + std::cos(a) * ry;
  }  // deformational: back where it started whenever has_exact(t)
  const double dz = cfg_.z_boundary == ZBoundary::Periodic ? periodic(pz - cfg_.center[2], g.lz) : pz - cfg_.center[2];
  return shape(periodic(px - cfg_.center[0], g.lx), periodic(py - cfg_.center[1], g.ly), dz);
}

double AdvectionCase::density(int k) const { return cfg_.scale_height > 0 ? std::exp(-z(k) / cfg_.scale_height) : 1.0; }

void AdvectionCase::face_courant(int gi, int gj, int k, double c[3]) const {
  const Grid& g = cfg_.grid;
  const double dt = cfg_.dt;
  const int i = wrap_x(gi), j = wrap_y(gj);
  const double G = density(k);
  switch (cfg_.flow) {
    case Flow::Translation:
      c[0] = G * cfg_.velocity[0] * dt / g.dx();
      c[1] = G * cfg_.velocity[1] * dt / g.dy();
      c[2] = cfg_.velocity[2] * dt / g.dz();
      break;
    case Flow::Rotation:
      c[0] = -G * cfg_.omega * (y(j) - cfg_.rotation_center[1]) * dt / g.dx();
      c[1] = G * cfg_.omega * (x(i) - cfg_.rotation_center[0]) * dt / g.dy();
      c[2] = 0.0;
      break;
    case Flow::Deformational: {
      // Normalised coordinates: faces at i/n, centres at (i + 1/2)/n. Face-averaged velocity =
      // stream-function difference across the face / face width; the period scales it so that the
      // flow (times cos(pi t / T)) returns the field at t = T.
      const double nx = g.nx, ny = g.ny, nz = g.nz;
      const double Xf = i / nx, Yf = j / ny, Zf = k / nz;
      const double Xc = (i + 0.5) / nx, Yc = (j + 0.5) / ny, Zc = (k + 0.5) / nz;
      const double scale = dt / cfg_.period;
      const double u = ny * (psi3(Xf, Yc + 0.5 / ny, Zc) - psi3(Xf, Yc - 0.5 / ny, Zc)) +
                       nz * (psi2(Xf, Yc, Zc + 0.5 / nz) - psi2(Xf, Yc, Zc - 0.5 / nz));
      const double v = -nx * (psi3(Xc + 0.5 / nx, Yf, Zc) - psi3(Xc - 0.5 / nx, Yf, Zc));
      const double w = -nx * (psi2(Xc + 0.5 / nx, Yc, Zf) - psi2(Xc - 0.5 / nx, Yc, Zf));
      c[0] = scale * nx * u;
      c[1] = scale * ny * v;
      c[2] = scale * nz * w;
      break;
    }
  }
  if (cfg_.z_boundary == ZBoundary::Rigid && k == 0) c[2] = 0.0;
}

double AdvectionCase::time_factor(double t_start) const {
  if (!time_dependent()) return 1.0;
  return std::cos(M_PI * (t_start + 0.5 * cfg_.dt) / cfg_.period);
}

void AdvectionCase::fill_tile(const Decomposition& d, int tile, double* psi, double* c1, double* c2, double* c3,
                              double* g) const {
  const TileLayout& L = d.layout();
  const int ox = d.origin_x(tile), oy = d.origin_y(tile);
  for (int k = 0; k < L.nz; ++k)
    for (int j = -L.halo; j < L.ny + L.halo; ++j)
      for (int i = -L.halo; i < L.nx + L.halo; ++i) {
        const std::ptrdiff_t n = L.at(i, j, k);
        psi[n] = initial(ox + i, oy + j, k);
        g[n] = density(k);
        double c[3];
        face_courant(ox + i, oy + j, k, c);
        c1[n] = c[0];
        c2[n] = c[1];
        c3[n] = c[2];
      }
}

double AdvectionCase::max_courant() const {
  const Grid& g = cfg_.grid;
  double worst = 0.0;
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        double lo[3], hx[3], hy[3], hz[3] = {0, 0, 0};
        face_courant(i, j, k, lo);
        face_courant(i + 1, j, k, hx);
        face_courant(i, j + 1, k, hy);
        if (k + 1 < g.nz)
          face_courant(i, j, k + 1, hz);
        else if (cfg_.z_boundary == ZBoundary::Periodic)
          face_courant(i, j, 0, hz);
        const double out = std::max(hx[0], 0.0) - std::min(lo[0], 0.0) + std::max(hy[1], 0.0) - std::min(lo[1], 0.0) +
                           std::max(hz[2], 0.0) - std::min(lo[2], 0.0);
        worst = std::max(worst, out / density(k));
      }
  return worst;
}

}  // namespace tdc
