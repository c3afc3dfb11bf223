#include "stratification_kernel.hpp"

namespace tdc {
namespace {

template <class F>
void each_cell(const TileLayout& L, F&& f) {
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) f(i, j, k);
}

}  // namespace

void environment_source_cpu(const ScaledArgs& a, const double* e, const double* w, double* theta) {
  each_cell(a.L, [&](int i, int j, int k) { environment_source_cell(a, e, w, theta, i, j, k); });
}

void implicit_buoyancy_cpu(const ScaledArgs& a, const double* e, const double* theta, double* w) {
  each_cell(a.L, [&](int i, int j, int k) { implicit_buoyancy_cell(a, e, theta, w, i, j, k); });
}

void stratified_gradient_cpu(const CentredArgs& a, const double* e, const double* p, double* u, double* v, double* w) {
  each_cell(a.L, [&](int i, int j, int k) { stratified_gradient_cell(a, e, p, u, v, w, i, j, k); });
}

}  // namespace tdc
