#include "../common/buffers.hpp"
#include "../common/codelet.hpp"
#include "advector.hpp"

namespace tdc {
namespace {

VelocityPointers velocities(void* b[]) {
  return {block_ptr(b, 0), block_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3), block_ptr(b, 4), block_ptr(b, 5)};
}
void advector_cpu_task(void* b[], void* arg) {
  AdvectorArgs a;
  starpu_codelet_unpack_args(arg, &a);
  advector_cpu(a, velocities(b), block_ptr(b, 6), block_ptr(b, 7), block_ptr(b, 8));
}
#if defined(TASKDYCORE_HAVE_CUDA)
void advector_cuda_task(void* b[], void* arg) {
  AdvectorArgs a;
  starpu_codelet_unpack_args(arg, &a);
  advector_cuda(a, velocities(b), block_ptr(b, 6), block_ptr(b, 7), block_ptr(b, 8), starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t advector_cuda_task = nullptr;
#endif

Codelet& codelet() {
  const auto R = STARPU_R, W = STARPU_W;
  static Codelet cl("advector", {R, R, R, R, R, R, W, W, W}, advector_cpu_task, advector_cuda_task);
  return cl;
}

}  // namespace

void insert_advector(const AdvectorArgs& a, const starpu_data_handle_t vel[6], const starpu_data_handle_t c[3],
                     int priority) {
  insert_task(codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_R, vel[0], STARPU_R, vel[1], STARPU_R, vel[2], STARPU_R,
              vel[3], STARPU_R, vel[4], STARPU_R, vel[5], STARPU_W, c[0], STARPU_W, c[1], STARPU_W, c[2],
              STARPU_PRIORITY, priority, STARPU_NAME, "advector");
}

}  // namespace tdc
