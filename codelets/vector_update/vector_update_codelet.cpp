#include "../common/buffers.hpp"
#include "../common/codelet.hpp"
#include "vector_update.hpp"

namespace tdc {
namespace {

void update_cpu(void* b[], void* arg) {
  VectorUpdateArgs a;
  starpu_codelet_unpack_args(arg, &a);
  vector_update_cpu(a, vector_ptr(b, 0), block_ptr(b, 1), block_ptr(b, 2));
}
#if defined(TASKDYCORE_HAVE_CUDA)
void update_cuda(void* b[], void* arg) {
  VectorUpdateArgs a;
  starpu_codelet_unpack_args(arg, &a);
  vector_update_cuda(a, vector_ptr(b, 0), block_ptr(b, 1), block_ptr(b, 2), starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t update_cuda = nullptr;
#endif

Codelet& codelet(bool reads_y) {
  static Codelet rw("vector_update", {STARPU_R, STARPU_R, STARPU_RW}, update_cpu, update_cuda);
  static Codelet w("vector_assign", {STARPU_R, STARPU_R, STARPU_W}, update_cpu, update_cuda);
  return reads_y ? rw : w;
}

}  // namespace

void insert_vector_update(const VectorUpdateArgs& a, starpu_data_handle_t state, starpu_data_handle_t x,
                          starpu_data_handle_t y, int priority) {
  const bool reads_y = !(a.ib < 0 && a.sb == 0.0);
  insert_task(codelet(reads_y), STARPU_VALUE, &a, sizeof(a), STARPU_R, state, STARPU_R, x,
              reads_y ? STARPU_RW : STARPU_W, y, STARPU_PRIORITY, priority, STARPU_NAME,
              reads_y ? "vector_update" : "vector_assign");
}

}  // namespace tdc
