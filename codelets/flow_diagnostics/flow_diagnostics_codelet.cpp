#include <algorithm>

#include "../common/codelet.hpp"
#include "flow_diagnostics.hpp"

namespace tdc {
namespace {

// u, v, w, theta, scratch, out
struct FlowDiagnostics
    : CodeletSpec<FlowDiagnosticsArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_SCRATCH, STARPU_W> {
  static constexpr const char* name = "flow_diagnostics";
  static void cpu(const Args& a, Buffers b) {
    flow_diagnostics_cpu(a, b.block(0), b.block(1), b.block(2), b.block(3), b.vector(5));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    flow_diagnostics_cuda(a, b.block(0), b.block(1), b.block(2), b.block(3), b.vector(4), b.vector(5), s);
  };
};

}  // namespace

std::size_t flow_diagnostics_scratch_size(const TileLayout& L) {
#if defined(TASKDYCORE_HAVE_CUDA)
  return flow_diagnostics_scratch_bytes(L);
#else
  (void)L;
  return sizeof(double);
#endif
}

void insert_flow_diagnostics(const FlowDiagnosticsArgs& a, const FlowTileHandles& in, starpu_data_handle_t scratch,
                             starpu_data_handle_t out, int priority) {
  CodeletOf<FlowDiagnostics>::insert(a, {in.u, in.v, in.w, in.theta, scratch, out}, {priority});
}

FlowTotals flow_totals_from(const double* r) {
  FlowTotals t;
  for (int q = 0; q < kFlowSums; ++q) t.sum[q] = DD{r[2 * q], r[2 * q + 1]};
  for (int q = 0; q < kFlowMaxima; ++q) t.max[q] = r[2 * kFlowSums + q];
  return t;
}

FlowTotals combine(const FlowTotals& a, const FlowTotals& b) {
  FlowTotals t;
  for (int q = 0; q < kFlowSums; ++q) t.sum[q] = dd_add(a.sum[q], b.sum[q]);
  for (int q = 0; q < kFlowMaxima; ++q) t.max[q] = std::max(a.max[q], b.max[q]);
  return t;
}

}  // namespace tdc
