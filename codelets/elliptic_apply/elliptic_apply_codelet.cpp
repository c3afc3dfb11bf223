#include "../common/buffers.hpp"
#include "../common/codelet.hpp"
#include "elliptic_apply.hpp"
#include "elliptic_apply_kernel.hpp"

namespace tdc {
namespace {

void apply_cpu(void* b[], void* arg) {
  EllipticTaskArgs a;
  starpu_codelet_unpack_args(arg, &a);
  elliptic_apply_cpu(a.L, a.h, vector_ptr(b, 0), vector_ptr(b, 1), a.skip_from, block_ptr(b, 2), block_ptr(b, 3));
}
#if defined(TASKDYCORE_HAVE_CUDA)
void apply_cuda(void* b[], void* arg) {
  EllipticTaskArgs a;
  starpu_codelet_unpack_args(arg, &a);
  elliptic_apply_cuda(a.L, a.h, vector_ptr(b, 0), vector_ptr(b, 1), a.skip_from, block_ptr(b, 2), block_ptr(b, 3),
                      starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t apply_cuda = nullptr;
#endif

Codelet& codelet() {
  static Codelet cl("elliptic_apply", {STARPU_R, STARPU_R, STARPU_R, STARPU_W}, apply_cpu, apply_cuda);
  return cl;
}

}  // namespace

void insert_elliptic_apply(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                           starpu_data_handle_t x, starpu_data_handle_t y, int priority) {
  insert_task(codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_R, coef, STARPU_R, state, STARPU_R, x, STARPU_W, y,
              STARPU_PRIORITY, priority, STARPU_NAME, "elliptic_apply");
}

}  // namespace tdc
