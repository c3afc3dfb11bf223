#include "../common/buffers.hpp"
#include "../common/codelet.hpp"
#include "line_precon.hpp"
#include "line_precon_kernel.hpp"

namespace tdc {
namespace {

void precon_cpu(void* b[], void* arg) {
  EllipticTaskArgs a;
  starpu_codelet_unpack_args(arg, &a);
  line_precon_cpu(a.L, vector_ptr(b, 0), vector_ptr(b, 1), a.skip_from, a.h.s, block_ptr(b, 2), block_ptr(b, 3));
}
#if defined(TASKDYCORE_HAVE_CUDA)
void precon_cuda(void* b[], void* arg) {
  EllipticTaskArgs a;
  starpu_codelet_unpack_args(arg, &a);
  line_precon_cuda(a.L, vector_ptr(b, 0), vector_ptr(b, 1), a.skip_from, a.h.s, block_ptr(b, 2), block_ptr(b, 3),
                      starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t precon_cuda = nullptr;
#endif

Codelet& codelet() {
  static Codelet cl("line_precon", {STARPU_R, STARPU_R, STARPU_R, STARPU_W}, precon_cpu, precon_cuda);
  return cl;
}

}  // namespace

void insert_line_precon(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                           starpu_data_handle_t r, starpu_data_handle_t z, int priority) {
  insert_task(codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_R, coef, STARPU_R, state, STARPU_R, r, STARPU_W, z,
              STARPU_PRIORITY, priority, STARPU_NAME, "line_precon");
}

}  // namespace tdc
