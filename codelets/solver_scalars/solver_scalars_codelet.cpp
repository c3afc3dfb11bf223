#include <stdexcept>

#include "../common/buffers.hpp"
#include "../common/codelet.hpp"
#include "solver_scalars.hpp"

namespace tdc {
namespace {

// Buffers: state (RW), then one partial vector per tile.
void gather_pointers(void* b[], const ScalarsArgs& a, const double** p) {
  for (int t = 0; t < a.tiles; ++t) p[t] = vector_ptr(b, 1 + t);
}

void scalars_cpu(void* b[], void* arg) {
  ScalarsArgs a;
  starpu_codelet_unpack_args(arg, &a);
  const double* p[kMaxCombineTiles];
  gather_pointers(b, a, p);
  solver_scalars_cpu(a, vector_ptr(b, 0), p);
}
#if defined(TASKDYCORE_HAVE_CUDA)
void scalars_cuda(void* b[], void* arg) {
  ScalarsArgs a;
  starpu_codelet_unpack_args(arg, &a);
  const double* p[kMaxCombineTiles];
  gather_pointers(b, a, p);
  solver_scalars_cuda(a, vector_ptr(b, 0), p, starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t scalars_cuda = nullptr;
#endif

Codelet& codelet() {
  static Codelet cl("solver_scalars", Codelet::VariableBuffers{}, scalars_cpu, scalars_cuda);
  return cl;
}

}  // namespace

void insert_solver_scalars(const ScalarsArgs& a, starpu_data_handle_t state,
                           const std::vector<starpu_data_handle_t>& partials) {
  if (partials.size() != std::size_t(a.tiles) || a.tiles > kMaxCombineTiles || (a.tiles < 1 && a.op != ScalarOp::Reset))
    throw std::logic_error("solver_scalars: tile count does not match its partials");
  std::vector<starpu_data_descr> d;
  d.push_back({state, a.op == ScalarOp::Reset ? STARPU_W : STARPU_RW});
  for (starpu_data_handle_t h : partials) d.push_back({h, STARPU_R});
  insert_task(codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_DATA_MODE_ARRAY, d.data(), int(d.size()),
              STARPU_PRIORITY, kPrioHalo, STARPU_NAME, "solver_scalars");
}

}  // namespace tdc
