#include "snapshot_copy.hpp"

#include "../common/codelet.hpp"

namespace tdc {

namespace {

// Tiles (blocks, ghost ring included) or small vectors (the solver state): both interfaces start with
// their id, so it tells which one a buffer is.
bool is_vector(void* b) { return *static_cast<const starpu_data_interface_id*>(b) == STARPU_VECTOR_INTERFACE_ID; }
std::size_t count(void* b) {
  if (is_vector(b)) return STARPU_VECTOR_GET_NX(b);
  return std::size_t(STARPU_BLOCK_GET_NX(b)) * STARPU_BLOCK_GET_NY(b) * STARPU_BLOCK_GET_NZ(b);
}
void* ptr_of(void* b) {
  return reinterpret_cast<void*>(is_vector(b) ? STARPU_VECTOR_GET_PTR(b) : STARPU_BLOCK_GET_PTR(b));
}
const double* src_of(void* b[]) { return static_cast<const double*>(ptr_of(b[0])); }
double* dst_of(void* b[]) { return static_cast<double*>(ptr_of(b[1])); }

void copy_cpu(void* b[], void*) { snapshot_copy_cpu(count(b[0]), src_of(b), dst_of(b)); }
#if defined(TASKDYCORE_HAVE_CUDA)
void copy_cuda(void* b[], void*) { snapshot_copy_cuda(count(b[0]), src_of(b), dst_of(b), starpu_cuda_get_local_stream()); }
#else
constexpr starpu_cuda_func_t copy_cuda = nullptr;
#endif

Codelet& codelet() {
  static Codelet cl("snapshot_copy", {STARPU_R, STARPU_W}, copy_cpu, copy_cuda);
  return cl;
}

}  // namespace

void insert_snapshot_copy(starpu_data_handle_t src, starpu_data_handle_t dst, int priority) {
  insert_task(codelet(), STARPU_R, src, STARPU_W, dst, STARPU_PRIORITY, priority, STARPU_NAME, "snapshot_copy");
}

}  // namespace tdc
