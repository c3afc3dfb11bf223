// flow_diagnostics codelet on one tile (see flow_diagnostics_kernel.hpp), and the host-side
// combination of the tiles' results in tile order.
#pragma once
#include <starpu.h>

#include "flow_diagnostics_kernel.hpp"

namespace tdc {

// The fields of one tile: u, v, w and theta' (w again as a placeholder when args.with_theta is 0).
struct FlowTileHandles {
  starpu_data_handle_t u, v, w, theta;
};

std::size_t flow_diagnostics_scratch_size(const TileLayout& L);
void insert_flow_diagnostics(const FlowDiagnosticsArgs& a, const FlowTileHandles& in, starpu_data_handle_t scratch,
                             starpu_data_handle_t out, int priority);

// The global result: sums in double-double, maxima.
struct FlowTotals {
  DD sum[kFlowSums];
  double max[kFlowMaxima];
};
FlowTotals flow_totals_from(const double* tile_result);
FlowTotals combine(const FlowTotals& a, const FlowTotals& b);  // a then b (tile order)

}  // namespace tdc
