#include "../common/buffers.hpp"
#include "../common/codelet.hpp"
#include "pressure_gradient.hpp"

namespace tdc {
namespace {

void gradient_cpu_task(void* b[], void* arg) {
  CentredArgs a;
  starpu_codelet_unpack_args(arg, &a);
  pressure_gradient_cpu(a, block_ptr(b, 0), block_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3));
}
void gradient_from_cpu_task(void* b[], void* arg) {
  CentredArgs a;
  starpu_codelet_unpack_args(arg, &a);
  const double* const v0[3] = {block_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3)};
  double* const v[3] = {block_ptr(b, 4), block_ptr(b, 5), block_ptr(b, 6)};
  pressure_gradient_from_cpu(a, block_ptr(b, 0), v0, v);
}
void divergence_cpu_task(void* b[], void* arg) {
  CentredArgs a;
  starpu_codelet_unpack_args(arg, &a);
  divergence_cpu(a, block_ptr(b, 0), block_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3));
}
#if defined(TASKDYCORE_HAVE_CUDA)
void gradient_cuda_task(void* b[], void* arg) {
  CentredArgs a;
  starpu_codelet_unpack_args(arg, &a);
  pressure_gradient_cuda(a, block_ptr(b, 0), block_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3),
                         starpu_cuda_get_local_stream());
}
void gradient_from_cuda_task(void* b[], void* arg) {
  CentredArgs a;
  starpu_codelet_unpack_args(arg, &a);
  const double* const v0[3] = {block_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3)};
  double* const v[3] = {block_ptr(b, 4), block_ptr(b, 5), block_ptr(b, 6)};
  pressure_gradient_from_cuda(a, block_ptr(b, 0), v0, v, starpu_cuda_get_local_stream());
}
void divergence_cuda_task(void* b[], void* arg) {
  CentredArgs a;
  starpu_codelet_unpack_args(arg, &a);
  divergence_cuda(a, block_ptr(b, 0), block_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3), starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t gradient_cuda_task = nullptr;
constexpr starpu_cuda_func_t gradient_from_cuda_task = nullptr;
constexpr starpu_cuda_func_t divergence_cuda_task = nullptr;
#endif

Codelet& gradient_codelet() {
  static Codelet cl("pressure_gradient", {STARPU_R, STARPU_RW, STARPU_RW, STARPU_RW}, gradient_cpu_task,
                    gradient_cuda_task);
  return cl;
}
Codelet& gradient_from_codelet() {
  static Codelet cl("pressure_gradient_from", {STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_W, STARPU_W},
                    gradient_from_cpu_task, gradient_from_cuda_task);
  return cl;
}
Codelet& divergence_codelet() {
  static Codelet cl("divergence", {STARPU_R, STARPU_R, STARPU_R, STARPU_W}, divergence_cpu_task, divergence_cuda_task);
  return cl;
}

}  // namespace

void insert_pressure_gradient(const CentredArgs& a, starpu_data_handle_t p, const starpu_data_handle_t vel[3],
                              int priority) {
  insert_task(gradient_codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_R, p, STARPU_RW, vel[0], STARPU_RW, vel[1],
              STARPU_RW, vel[2], STARPU_PRIORITY, priority, STARPU_NAME, "pressure_gradient");
}

void insert_pressure_gradient_from(const CentredArgs& a, starpu_data_handle_t p, const starpu_data_handle_t from[3],
                                   const starpu_data_handle_t vel[3], int priority) {
  insert_task(gradient_from_codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_R, p, STARPU_R, from[0], STARPU_R, from[1],
              STARPU_R, from[2], STARPU_W, vel[0], STARPU_W, vel[1], STARPU_W, vel[2], STARPU_PRIORITY, priority,
              STARPU_NAME, "pressure_gradient_from");
}

void insert_divergence(const CentredArgs& a, const starpu_data_handle_t vel[3], starpu_data_handle_t f, int priority) {
  insert_task(divergence_codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_R, vel[0], STARPU_R, vel[1], STARPU_R, vel[2],
              STARPU_W, f, STARPU_PRIORITY, priority, STARPU_NAME, "divergence");
}

}  // namespace tdc
