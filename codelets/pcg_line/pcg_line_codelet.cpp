#include "../common/buffers.hpp"
#include "../common/codelet.hpp"
#include "pcg_line.hpp"
#include "pcg_line_kernel.hpp"

namespace tdc {
namespace {

// The task's arguments: the tile's, the scalars step folded in (then.tiles == 0: none), and whether the
// tile is the whole horizontally periodic domain.
struct Args {
  EllipticTaskArgs e;
  ScalarsArgs then;
  int periodic = 0;
};

// Buffers: coef, state, p, r (RW), z (W), scratch, out.
void step_cpu(void* b[], void* arg) {
  Args a;
  starpu_codelet_unpack_args(arg, &a);
  pcg_line_step_cpu(a.e.L, a.e.h, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3),
                    block_ptr(b, 4), vector_ptr(b, 6), a.periodic != 0);
  fold_scalars_cpu(a.then, vector_ptr(b, 1), vector_ptr(b, 6));
}
// Buffers: coef, state, u (RW), p, z, p_next (W), scratch, out.
void direction_cpu(void* b[], void* arg) {
  Args a;
  starpu_codelet_unpack_args(arg, &a);
  pcg_line_direction_cpu(a.e.L, a.e.h, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3),
                         block_ptr(b, 4), block_ptr(b, 5), vector_ptr(b, 7), a.periodic != 0);
  fold_scalars_cpu(a.then, vector_ptr(b, 1), vector_ptr(b, 7));
}
#if defined(TASKDYCORE_HAVE_CUDA)
void step_cuda(void* b[], void* arg) {
  Args a;
  starpu_codelet_unpack_args(arg, &a);
  pcg_line_step_cuda(a.e.L, a.e.h, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3),
                     block_ptr(b, 4), vector_ptr(b, 5), vector_ptr(b, 6), a.periodic != 0,
                     starpu_cuda_get_local_stream());
  fold_scalars_cuda(a.then, vector_ptr(b, 1), vector_ptr(b, 6), starpu_cuda_get_local_stream());
}
void direction_cuda(void* b[], void* arg) {
  Args a;
  starpu_codelet_unpack_args(arg, &a);
  pcg_line_direction_cuda(a.e.L, a.e.h, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3),
                          block_ptr(b, 4), block_ptr(b, 5), vector_ptr(b, 6), vector_ptr(b, 7), a.periodic != 0,
                          starpu_cuda_get_local_stream());
  fold_scalars_cuda(a.then, vector_ptr(b, 1), vector_ptr(b, 7), starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t step_cuda = nullptr;
constexpr starpu_cuda_func_t direction_cuda = nullptr;
#endif

// Each in two forms: reading the state, or (with the scalars step folded in) writing it.
Codelet& step_codelet(bool writes_state) {
  static Codelet reads("pcg_line_step", {STARPU_R, STARPU_R, STARPU_R, STARPU_RW, STARPU_W, STARPU_SCRATCH, STARPU_W},
                       step_cpu, step_cuda);
  static Codelet writes("pcg_line_step_scalars",
                        {STARPU_R, STARPU_RW, STARPU_R, STARPU_RW, STARPU_W, STARPU_SCRATCH, STARPU_W}, step_cpu,
                        step_cuda);
  return writes_state ? writes : reads;
}
Codelet& direction_codelet(bool writes_state) {
  static Codelet reads("pcg_line_direction",
                       {STARPU_R, STARPU_R, STARPU_RW, STARPU_R, STARPU_R, STARPU_W, STARPU_SCRATCH, STARPU_W},
                       direction_cpu, direction_cuda);
  static Codelet writes("pcg_line_direction_scalars",
                        {STARPU_R, STARPU_RW, STARPU_RW, STARPU_R, STARPU_R, STARPU_W, STARPU_SCRATCH, STARPU_W},
                        direction_cpu, direction_cuda);
  return writes_state ? writes : reads;
}

}  // namespace

void insert_pcg_line_step(const EllipticTaskArgs& e, starpu_data_handle_t coef, starpu_data_handle_t state,
                          starpu_data_handle_t p, starpu_data_handle_t r,
                          starpu_data_handle_t z, starpu_data_handle_t scratch, starpu_data_handle_t out,
                          int priority, const ScalarsArgs* then, bool periodic) {
  const Args a{e, then ? *then : ScalarsArgs{}, periodic ? 1 : 0};
  Codelet& cl = step_codelet(then != nullptr);
  insert_task(cl, STARPU_VALUE, &a, sizeof(a), STARPU_R, coef, then ? STARPU_RW : STARPU_R, state, STARPU_R, p,
              STARPU_RW, r, STARPU_W, z, STARPU_SCRATCH, scratch, STARPU_W, out, STARPU_PRIORITY,
              priority, STARPU_NAME, cl.name());
}

void insert_pcg_line_direction(const EllipticTaskArgs& e, starpu_data_handle_t coef, starpu_data_handle_t state,
                               starpu_data_handle_t u, starpu_data_handle_t p, starpu_data_handle_t z, starpu_data_handle_t p_next,
                               starpu_data_handle_t scratch, starpu_data_handle_t out, int priority,
                               const ScalarsArgs* then, bool periodic) {
  const Args a{e, then ? *then : ScalarsArgs{}, periodic ? 1 : 0};
  Codelet& cl = direction_codelet(then != nullptr);
  insert_task(cl, STARPU_VALUE, &a, sizeof(a), STARPU_R, coef, then ? STARPU_RW : STARPU_R, state, STARPU_RW, u,
              STARPU_R, p, STARPU_R, z, STARPU_W, p_next, STARPU_SCRATCH, scratch, STARPU_W, out, STARPU_PRIORITY, priority,
              STARPU_NAME, cl.name());
}

}  // namespace tdc
