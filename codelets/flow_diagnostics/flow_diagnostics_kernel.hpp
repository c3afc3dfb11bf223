// flow_diagnostics: one tile's share of the dynamical core's budgets (the NEMO-style diagnostics of
// paper 001 §3.2) from snapshots of u, v, w (ghost rings valid) and theta':
//   sums, compensated and in the fixed order of codelets/common/fixed_order_sum.hpp (one item per
//   cell): |v|^2 / 2, |omega|^2 / 2, |omega|, theta', theta' z;
//   maxima (exact in any order): |D v|, the Courant sum dt (|u|/dx + |v|/dy + |w|/dz), |omega|,
//   theta'.
// omega and D v use the centred differences of the step (pressure_gradient_kernel.hpp), mirrored
// about rigid lids (u, v even, w odd). Tiles are combined in tile order on the host
// (graph/flow_diagnostics), so the records do not depend on tiles, scheduler or ranks.
#pragma once
#include <cmath>

#include "../common/fixed_order_sum.hpp"
#include "../pressure_gradient/pressure_gradient_kernel.hpp"

namespace tdc {

enum FlowSum : int { kKineticEnergy = 0, kEnstrophy, kVorticityL1, kThetaSum, kThetaZ, kFlowSums };
enum FlowMax : int { kMaxDivergence = 0, kMaxCourant, kMaxVorticity, kMaxTheta, kFlowMaxima };
// A tile's result: the sums as double-doubles (hi, lo, ...), then the maxima.
constexpr int kFlowDoubles = 2 * kFlowSums + kFlowMaxima;

struct FlowDiagnosticsArgs {
  CentredArgs centred;            // gx = 1/(2 dx), gy, gz and the z boundary
  double cx = 0, cy = 0, cz = 0;  // dt/dx, dt/dy, dt/dz
  double dz = 0;
  int with_theta = 0;  // 0: the theta' buffer is a placeholder, its sums and maximum are 0
};

struct FlowCell {
  Sums<kFlowSums> s;
  double m[kFlowMaxima];
};

TDC_HD double fmax_(double a, double b) { return a > b ? a : b; }
TDC_HD double fabs_flow(double x) { return x < 0.0 ? -x : x; }

TDC_HD FlowCell flow_cell(const FlowDiagnosticsArgs& a, const double* u, const double* v, const double* w,
                          const double* th, int i, int j, int k) {
  const CentredArgs& c = a.centred;
  const TileLayout& L = c.L;
  const std::ptrdiff_t o = L.at(i, j, k), sx = L.sx();
  const std::ptrdiff_t up = L.at(i, j, k_above(k, L.nz, c.zb)), dn = L.at(i, j, k_below(k, L.nz, c.zb));
  const double ox = c.gy * (w[o + sx] - w[o - sx]) - c.gz * (v[up] - v[dn]);
  const double oy = c.gz * (u[up] - u[dn]) - c.gx * (w[o + 1] - w[o - 1]);
  const double oz = c.gx * (v[o + 1] - v[o - 1]) - c.gy * (u[o + sx] - u[o - sx]);
  const double omega2 = ox * ox + oy * oy + oz * oz, omega = sqrt(omega2);
  const double theta = a.with_theta ? th[o] : 0.0;
  FlowCell r;
  r.s.v[kKineticEnergy] = DD{0.5 * (u[o] * u[o] + v[o] * v[o] + w[o] * w[o]), 0.0};
  r.s.v[kEnstrophy] = DD{0.5 * omega2, 0.0};
  r.s.v[kVorticityL1] = DD{omega, 0.0};
  r.s.v[kThetaSum] = DD{theta, 0.0};
  r.s.v[kThetaZ] = DD{theta * ((k + 0.5) * a.dz), 0.0};
  r.m[kMaxDivergence] = fabs_flow(divergence_cell(c, u, v, w, i, j, k));
  r.m[kMaxCourant] = a.cx * fabs_flow(u[o]) + a.cy * fabs_flow(v[o]) + a.cz * fabs_flow(w[o]);
  r.m[kMaxVorticity] = omega;
  r.m[kMaxTheta] = theta;
  return r;
}

void flow_diagnostics_cpu(const FlowDiagnosticsArgs& a, const double* u, const double* v, const double* w,
                          const double* th, double* out);
#if defined(TASKDYCORE_HAVE_CUDA)
std::size_t flow_diagnostics_scratch_bytes(const TileLayout& L);
void flow_diagnostics_cuda(const FlowDiagnosticsArgs& a, const double* u, const double* v, const double* w,
                           const double* th, void* scratch, double* out, cudaStream_t stream);
#endif

}  // namespace tdc
