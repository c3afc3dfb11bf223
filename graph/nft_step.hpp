// One step of EULAG's non-oscillatory forward-in-time (NFT) integration of incompressible flow as a
// task graph (paper 000 §5-7), with nothing waiting on the host:
//   advector           c = dt/dx (1.5 v^n - 0.5 v^(n-1)) on faces; halo exchange of c
//   snapshot_copy      v^(n-1) <- v^n
//   viscous_diffusion  v~ = v^n + dt nu Lap(v^n)               (optional, explicit, first order)
//   pressure_gradient  v~ = v~ - dt/2 G(p^n)                   (the explicit half of the forcing)
//   MPDATA x 3         v^ = ADV(v~, c)                         (graph/mpdata_graph, per component)
//   divergence         f = -(2/dt) D(v^)
//   GCR / PCG          -L p^(n+1) = f, laplc with the line preconditioner, from p^n, at most
//                      `budget` iterations submitted, stopping at the tolerance on the GPU
//   pressure_gradient  v^(n+1) = v^ - dt/2 G(p^(n+1)); halo exchanges
// D(G p) = L p exactly, so |D v^(n+1)| = dt/2 |r|: the divergence left is the solver's residual.
#pragma once
#include <memory>

#include "elliptic_solver.hpp"
#include "mpdata_graph.hpp"

namespace tdc {

struct NftFields {
  TiledField* vel[3][2];   // u, v, w; step n reads vel[q][n % 2] and leaves v^(n+1) in vel[q][(n + 1) % 2]
  TiledField* old[3];      // v^(n-1)
  TiledField *c[3], *g;    // face Courant numbers, G (= 1)
  TiledField *p, *rhs;     // pressure (kept as the next first guess) and the solver's right-hand side
  TileStrips* vel_strips[3];
  TileStrips* c_strips[3];
  TileStrips* p_strips;
};

struct NftSettings {
  double dt = 0.01;
  mpdata::Options mpdata;
  KrylovSettings solver;
  int solver_budget = 50;  // iterations submitted per step (the solve stops earlier at the tolerance)
  double viscosity = 0.0;  // nu: explicit viscous term nu Lap(v^n) (0: inviscid, implicit LES)
};

class NftStepGraph {
 public:
  NftStepGraph(const Decomposition& d, int rank, const Grid& g, const NftSettings& s);
  void submit_step(const NftFields& f, long n);
  EllipticSolver& solver() { return *solver_; }
  // Iterations submitted per step from now on (submitted iterations past convergence cost only
  // their scheduling, so the run sizes this from the iterations it has seen).
  void set_solver_budget(int iterations) { s_.solver_budget = iterations; }
  int tasks_per_tile() const;

 private:
  const Decomposition& d_;
  NftSettings s_;
  MpdataGraph mpdata_;
  std::unique_ptr<EllipticSolver> solver_;
  double cx_, cy_, cz_, gx_, gy_, gz_;  // dt/dx..., 1/(2dx)...
};

}  // namespace tdc
