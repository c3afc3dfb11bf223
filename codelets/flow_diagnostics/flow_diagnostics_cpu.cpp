#include <limits>

#include "flow_diagnostics_kernel.hpp"

namespace tdc {

void flow_diagnostics_cpu(const FlowDiagnosticsArgs& a, const double* u, const double* v, const double* w,
                          const double* th, double* out) {
  const TileLayout& L = a.centred.L;
  ItemReducer<kFlowSums> sums;
  double m[kFlowMaxima];
  for (double& x : m) x = -std::numeric_limits<double>::infinity();
  for (int k = 0; k < L.nz; ++k)  // item order: i fastest, then j, then k (cell_of_item)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const FlowCell c = flow_cell(a, u, v, w, th, i, j, k);
        sums.push(c.s);
        for (int q = 0; q < kFlowMaxima; ++q) m[q] = fmax_(m[q], c.m[q]);
      }
  sums.finish(out);
  for (int q = 0; q < kFlowMaxima; ++q) out[2 * kFlowSums + q] = m[q];
}

}  // namespace tdc
