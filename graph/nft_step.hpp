// One step of EULAG's non-oscillatory forward-in-time (NFT) integration of incompressible flow as a
// task graph (paper 000 §5-7), with nothing waiting on the host:
//   advector           c = dt/dx (1.5 v^n - 0.5 v^(n-1)) on faces, its ghost ring too
//   viscous_diffusion  v~ = v^n + dt nu Lap(v^n)               (optional, explicit, first order)
//   pressure_gradient  v~ = v~ - dt/2 G(p^n), or v^n - dt/2 G(p^n) without viscosity (the explicit
//                      half of the forcing; v~ has its own buffer, so v^n stays as v^(n-1) of n + 1)
//   buoyancy           w~ = w~ + dt/2 b theta'^n               (b = g / theta_0; with theta' only)
//   coriolis           v~ = v~ + dt f x (v* - v_g), v* extrapolated to the half step (optional)
//   absorber           v~ = v~ - dt nu (v^n - v_e) below the lid (optional, explicit, first order)
//   scalar_diffusion   theta'~ = theta'^n + dt kappa Lap(theta'^n)  (optional, explicit, first order)
//   environment_source theta'~ = theta'~ - dt/2 S w^n           (S = dtheta_e/dz; stratified only), and
//                      the absorber on theta' (optional)
//   MPDATA x 3 (+1)    v^ = ADV(v~, c), theta'^(n+1) = ADV(theta'~, c)   (graph/mpdata_graph)
//   buoyancy           w^ = w^ + dt/2 b theta'^(n+1)           (the implicit half, known already), or
//   implicit_buoyancy  w^ = alpha (w^ + dt/2 b theta^) when stratified (codelets/stratification:
//                      theta' and w are then coupled implicitly, alpha = 1 / (1 + (dt/2)^2 b S))
//   divergence         f = -(2/dt) D(v^), or D(rho v^) when anelastic (codelets/anelastic: the
//                      advector's Courant numbers then carry rho on the faces, MPDATA G = rho)
//   GCR / PCG          -L p^(n+1) = f, laplc with the line preconditioner, from p^n, at most
//                      `budget` iterations submitted, stopping at the tolerance on the GPU
//   pressure_gradient  v^(n+1) = v^ - dt/2 G(p^(n+1)) (stratified: alpha on the vertical component,
//                      and the operator D(G_h p, alpha G_z p))
//   environment_source theta'^(n+1) = theta^ - dt/2 S w^(n+1)  (stratified only)
// Halo exchanges: MPDATA's outputs (v^, theta^) and p^(n+1), each as wide as nft_halo(). Every
// update between them is computed on the ghost ring too, as far as its inputs' rings allow
// (ring_box), so v~, theta'~, v^(n+1) and theta'^(n+1) need no exchange: a ring cell gets the value
// its owner computes, from the same inputs, bit for bit. Each stencil costs the ring a column: v^
// and p^(n+1) arrive H wide, v^(n+1) is current H - 1 wide, and the next step's forcing needs
// MPDATA's reach r (one more under a Laplacian): H = r + 1, or r + 2 with diffusion. Tiles narrower
// than that (the density current's 4-cell channel, where H would be 5) keep MPDATA's halo and
// exchange v~ and v^(n+1) (theta' with them).
// D(G p) = L p exactly, so |D v^(n+1)| = dt/2 |r|: the divergence left is the solver's residual.
// Columns are periodic, or end at rigid free-slip lids (every stencil mirrors about them, and
// MPDATA carries no flux through them).
#pragma once
#include <memory>
#include <vector>

#include "elliptic_solver.hpp"
#include "mpdata_graph.hpp"

namespace tdc {

struct NftFields {
  TiledField* vel[3][2];      // u, v, w: step n starts with v^n in vel[q][n % 2] and v^(n-1) in vel[q][(n + 1) % 2],
                              // and leaves v^(n+1) in vel[q][(n + 1) % 2]
  TiledField* forced[3];      // v~, the forced velocity MPDATA advects (scratch between steps)
  TiledField *c[3], *g;       // face Courant numbers (their ghost rings too: no exchange), G (= 1)
  TiledField *p, *rhs;        // pressure (kept as the next first guess) and the solver's right-hand side
  TiledField *p_old, *p_tmp;  // p^(n-1) and a copy of p^n, for the extrapolated first guess (else null)
  TiledField* theta[2];       // theta' (double buffer like vel), or null without buoyancy
  TiledField* theta_old;      // theta'^n for the explicit diffusion (null without it)
  TileStrips* vel_strips[3];
  TileStrips* theta_strips;
  TileStrips* p_strips;
};

// The environment of a stratified case and the forces beside it; all off by default (the
// Boussinesq step of a neutral atmosphere at rest, whose tasks and bits are then unchanged).
struct NftEnvironment {
  std::vector<double> profiles;  // kEnvVectors * nz (codelets/stratification), or empty
  bool stratified = false;       // the implicit buoyancy and the weighted operator
  bool absorber = false;         // the kEnvDamping profile is not all 0
  bool anelastic = false;        // D(rho v) = 0 with the kEnvDensity profile (codelets/anelastic), G = rho
  double coriolis = 0.0, ug = 0.0, vg = 0.0;
  double wind_u = 0.0, wind_v = 0.0;  // the absorber's target for u and v
  bool active() const { return stratified || absorber || anelastic || coriolis != 0.0; }
};

struct NftSettings {
  double dt = 0.01;
  mpdata::Options mpdata;
  KrylovSettings solver;
  int solver_budget = 50;             // iterations submitted per step (the solve stops earlier at the tolerance)
  double viscosity = 0.0;             // nu: explicit viscous term nu Lap(v^n) (0: inviscid, implicit LES)
  double diffusivity = 0.0;           // kappa: explicit diffusion of theta', kappa Lap(theta'^n) (0: none)
  bool extrapolate_pressure = false;  // first guess 2 p^n - p^(n-1) instead of p^n
  double buoyancy = 0.0;              // b = g / theta_0 (0: no theta')
  ZBoundary zb = ZBoundary::Periodic;
  NftEnvironment env;
};

// The ghost ring the step's fields carry (see above): MPDATA's reach plus the stencils that computing
// the forcing on the ring costs, where the narrowest tile side has room for it, else MPDATA's reach;
// at least laplc's 2.
int nft_halo(const mpdata::Options& mpdata, bool diffusion, int narrowest_tile);

class NftStepGraph {
 public:
  NftStepGraph(const Decomposition& d, int rank, const Grid& g, const NftSettings& s);
  void submit_step(const NftFields& f, long n);
  // For a state at rest (v = 0 in both vel buffers, `forced` at 0): p^0 in hydrostatic balance with the buoyancy,
  // L p^0 = D(b theta'^0 z), so that the first step's explicit half forcing is already balanced
  // (with p^0 = 0 the first solve overshoots by the whole hydrostatic pressure). Waits for the solve.
  SolveResult balance_rest_pressure(const NftFields& f);
  // Makes v^0 (vel[.][0], ghost rings valid) free of centred divergence: L phi = D v, v <- v - G phi,
  // with phi in p (which must be 0; it holds phi afterwards). Waits for the solve.
  SolveResult project_velocity(const NftFields& f);
  EllipticSolver& solver() { return *solver_; }
  // Iterations submitted per step from now on (submitted iterations past convergence cost only
  // their scheduling, so the run sizes this from the iterations it has seen).
  void set_solver_budget(int iterations) { s_.solver_budget = iterations; }
  int tasks_per_tile() const;

 private:
  SolveResult solve_from_zero(const NftFields& f);
  const Decomposition& d_;
  NftSettings s_;
  MpdataGraph mpdata_;
  std::unique_ptr<EllipticSolver> solver_;
  std::unique_ptr<RankZeroVector> env_;  // the environment's profiles (with an active environment)
  double cx_, cy_, cz_, gx_, gy_, gz_;   // dt/dx..., 1/(2dx)...
  bool rings_computed_ = false;          // the forcing and the correction on the ghost ring (nft_halo)
};

}  // namespace tdc
