#include <algorithm>

#include "../common/buffers.hpp"
#include "../common/codelet.hpp"
#include "flow_diagnostics.hpp"

namespace tdc {
namespace {

void flow_cpu_task(void* b[], void* arg) {
  FlowDiagnosticsArgs a;
  starpu_codelet_unpack_args(arg, &a);
  flow_diagnostics_cpu(a, block_ptr(b, 0), block_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3), vector_ptr(b, 5));
}
#if defined(TASKDYCORE_HAVE_CUDA)
void flow_cuda_task(void* b[], void* arg) {
  FlowDiagnosticsArgs a;
  starpu_codelet_unpack_args(arg, &a);
  flow_diagnostics_cuda(a, block_ptr(b, 0), block_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3), vector_ptr(b, 4),
                        vector_ptr(b, 5), starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t flow_cuda_task = nullptr;
#endif

Codelet& codelet() {
  static Codelet cl("flow_diagnostics", {STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_SCRATCH, STARPU_W},
                    flow_cpu_task, flow_cuda_task);
  return cl;
}

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
  insert_task(codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_R, in.u, STARPU_R, in.v, STARPU_R, in.w, STARPU_R,
              in.theta, STARPU_SCRATCH, scratch, STARPU_W, out, STARPU_PRIORITY, priority, STARPU_NAME,
              "flow_diagnostics");
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
