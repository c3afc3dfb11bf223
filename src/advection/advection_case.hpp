// The analytic side of the advection cases: initial state, exact solution, density G and the
// face Courant numbers of translation, solid-body rotation and the 3D deformational flow of
// LeVeque (1996), built from stream-function differences so that their discrete divergence vanishes
// to round-off.
#pragma once
#include "advection_config.hpp"
#include "../../graph/runtime/grid.hpp"

namespace tdc {

class AdvectionCase {
 public:
  explicit AdvectionCase(const AdvectionConfig& c);

  double initial(int gi, int gj, int k) const;
  // Whether an exact solution is known at time t, and its value.
  bool has_exact(double t) const;
  double exact(int gi, int gj, int k, double t) const;
  double density(int k) const;
  // Mass-flux Courant numbers on the lower x, y and z faces of global cell (gi, gj, k) for the
  // flow's spatial pattern; horizontal indices wrap periodically.
  void face_courant(int gi, int gj, int k, double c[3]) const;
  bool time_dependent() const { return cfg_.flow == Flow::Deformational; }
  // The multiplier of the spatial pattern over the step that starts at time t.
  double time_factor(double t_start) const;
  // Fills one tile of psi, the Courant numbers and G, ghost ring included (with the periodic
  // images, so that Courant numbers and G never need a halo exchange).
  void fill_tile(const Decomposition& d, int tile, double* psi, double* c1, double* c2, double* c3, double* g) const;
  // max over cells of (sum of outflow Courant numbers) / G: the donor-cell stability number (<= 1).
  double max_courant() const;

 private:
  double shape(double dx, double dy, double dz) const;
  double x(int gi) const { return (gi + 0.5) * cfg_.grid.dx(); }
  double y(int gj) const { return (gj + 0.5) * cfg_.grid.dy(); }
  double z(int k) const { return (k + 0.5) * cfg_.grid.dz(); }
  int wrap_x(int gi) const { return ((gi % cfg_.grid.nx) + cfg_.grid.nx) % cfg_.grid.nx; }
  int wrap_y(int gj) const { return ((gj % cfg_.grid.ny) + cfg_.grid.ny) % cfg_.grid.ny; }
  AdvectionConfig cfg_;
};

}  // namespace tdc
