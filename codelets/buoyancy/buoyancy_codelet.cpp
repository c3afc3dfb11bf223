#include "../common/buffers.hpp"
#include "../common/codelet.hpp"
#include "buoyancy.hpp"

namespace tdc {
namespace {

void buoyancy_cpu_task(void* b[], void* arg) {
  BuoyancyArgs a;
  starpu_codelet_unpack_args(arg, &a);
  buoyancy_cpu(a, block_ptr(b, 0), block_ptr(b, 1));
}
#if defined(TASKDYCORE_HAVE_CUDA)
void buoyancy_cuda_task(void* b[], void* arg) {
  BuoyancyArgs a;
  starpu_codelet_unpack_args(arg, &a);
  buoyancy_cuda(a, block_ptr(b, 0), block_ptr(b, 1), starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t buoyancy_cuda_task = nullptr;
#endif

Codelet& codelet() {
  static Codelet cl("buoyancy", {STARPU_R, STARPU_RW}, buoyancy_cpu_task, buoyancy_cuda_task);
  return cl;
}

}  // namespace

void insert_buoyancy(const BuoyancyArgs& a, starpu_data_handle_t theta, starpu_data_handle_t w, int priority) {
  insert_task(codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_R, theta, STARPU_RW, w, STARPU_PRIORITY, priority,
              STARPU_NAME, "buoyancy");
}

}  // namespace tdc
