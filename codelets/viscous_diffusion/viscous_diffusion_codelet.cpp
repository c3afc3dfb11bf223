#include "../common/buffers.hpp"
#include "../common/codelet.hpp"
#include "viscous_diffusion.hpp"

namespace tdc {
namespace {

void diffusion_cpu_task(void* b[], void* arg) {
  DiffusionArgs a;
  starpu_codelet_unpack_args(arg, &a);
  const double* src[3] = {block_ptr(b, 0), block_ptr(b, 1), block_ptr(b, 2)};
  double* dst[3] = {block_ptr(b, 3), block_ptr(b, 4), block_ptr(b, 5)};
  viscous_diffusion_cpu(a, src, dst);
}
#if defined(TASKDYCORE_HAVE_CUDA)
void diffusion_cuda_task(void* b[], void* arg) {
  DiffusionArgs a;
  starpu_codelet_unpack_args(arg, &a);
  const double* src[3] = {block_ptr(b, 0), block_ptr(b, 1), block_ptr(b, 2)};
  double* dst[3] = {block_ptr(b, 3), block_ptr(b, 4), block_ptr(b, 5)};
  viscous_diffusion_cuda(a, src, dst, starpu_cuda_get_local_stream());
}
void scalar_cuda_task(void* b[], void* arg) {
  DiffusionArgs a;
  starpu_codelet_unpack_args(arg, &a);
  scalar_diffusion_cuda(a, block_ptr(b, 0), block_ptr(b, 1), starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t diffusion_cuda_task = nullptr, scalar_cuda_task = nullptr;
#endif
void scalar_cpu_task(void* b[], void* arg) {
  DiffusionArgs a;
  starpu_codelet_unpack_args(arg, &a);
  scalar_diffusion_cpu(a, block_ptr(b, 0), block_ptr(b, 1));
}

Codelet& codelet() {
  const auto R = STARPU_R, RW = STARPU_RW;
  static Codelet cl("viscous_diffusion", {R, R, R, RW, RW, RW}, diffusion_cpu_task, diffusion_cuda_task);
  return cl;
}

Codelet& scalar_codelet() {
  static Codelet cl("scalar_diffusion", {STARPU_R, STARPU_RW}, scalar_cpu_task, scalar_cuda_task);
  return cl;
}

}  // namespace

void insert_scalar_diffusion(const DiffusionArgs& a, starpu_data_handle_t src, starpu_data_handle_t dst, int priority) {
  insert_task(scalar_codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_R, src, STARPU_RW, dst, STARPU_PRIORITY, priority,
              STARPU_NAME, "scalar_diffusion");
}

void insert_viscous_diffusion(const DiffusionArgs& a, const starpu_data_handle_t src[3],
                              const starpu_data_handle_t dst[3], int priority) {
  insert_task(codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_R, src[0], STARPU_R, src[1], STARPU_R, src[2], STARPU_RW,
              dst[0], STARPU_RW, dst[1], STARPU_RW, dst[2], STARPU_PRIORITY, priority, STARPU_NAME,
              "viscous_diffusion");
}

}  // namespace tdc
