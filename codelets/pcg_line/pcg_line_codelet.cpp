#include "../common/buffers.hpp"
#include "../common/codelet.hpp"
#include "pcg_line.hpp"
#include "pcg_line_kernel.hpp"

namespace tdc {
namespace {

// Buffers: coef, state, A p, r (RW), z (W), scratch, out.
void step_cpu(void* b[], void* arg) {
  EllipticTaskArgs a;
  starpu_codelet_unpack_args(arg, &a);
  pcg_line_step_cpu(a.L, a.h, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3), block_ptr(b, 4),
                    vector_ptr(b, 6));
}
// Buffers: coef, state, u (RW), p, z, p_next (RW: it holds the direction before p, which u's deferred
// update may read), A p_next (W), scratch, out. The tile reads its ghost
// rings (several tiles: never the whole periodic domain).
void direction_cpu(void* b[], void* arg) {
  EllipticTaskArgs a;
  starpu_codelet_unpack_args(arg, &a);
  pcg_line_direction_cpu(a.L, a.h, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3),
                         block_ptr(b, 4), block_ptr(b, 5), block_ptr(b, 6), vector_ptr(b, 8), false);
}

// Several iterations of a single tile on one rank as one task: each step and direction with its scalars
// step, back to back. The same kernels in the same order as the two tasks per iteration.
struct Iterations {
  EllipticTaskArgs e;
  ScalarsArgs after_step, after_direction;
  int parity = 0;  // which of the two direction buffers holds p in the first iteration
  int count = 0;
};
// Buffers: coef, state (RW), u (RW), direction 0 (RW), direction 1 (RW), A p (RW), r (RW), z (W),
// scratch, out.
struct IterationBuffers {
  double *coef, *st, *u, *dir[2], *ap, *r, *z, *scratch, *out;
  explicit IterationBuffers(void* b[])
      : coef(vector_ptr(b, 0)), st(vector_ptr(b, 1)), u(block_ptr(b, 2)), dir{block_ptr(b, 3), block_ptr(b, 4)},
        ap(block_ptr(b, 5)), r(block_ptr(b, 6)), z(block_ptr(b, 7)), scratch(vector_ptr(b, 8)), out(vector_ptr(b, 9)) {}
};
void iterations_cpu(void* b[], void* arg) {
  Iterations a;
  starpu_codelet_unpack_args(arg, &a);
  const IterationBuffers x(b);
  for (int m = 0; m < a.count && !solver_skips(x.st, 2); ++m) {  // (past the end every call returns at once)
    double *p = x.dir[(a.parity + m) % 2], *p_next = x.dir[(a.parity + m + 1) % 2];
    pcg_line_step_cpu(a.e.L, a.e.h, x.coef, x.st, x.ap, x.r, x.z, x.out);
    fold_scalars_cpu(a.after_step, x.st, x.out);
    pcg_line_direction_cpu(a.e.L, a.e.h, x.coef, x.st, x.u, p, x.z, p_next, x.ap, x.out, true);
    fold_scalars_cpu(a.after_direction, x.st, x.out);
  }
}
#if defined(TASKDYCORE_HAVE_CUDA)
void iterations_cuda(void* b[], void* arg) {
  Iterations a;
  starpu_codelet_unpack_args(arg, &a);
  const IterationBuffers x(b);
  pcg_line_iterations_cuda(a.e.L, a.e.h, x.coef, x.st, x.u, x.dir, x.ap, x.r, x.z, x.scratch, x.out, a.after_step,
                           a.after_direction, a.parity, a.count, starpu_cuda_get_local_stream());
}
void step_cuda(void* b[], void* arg) {
  EllipticTaskArgs a;
  starpu_codelet_unpack_args(arg, &a);
  pcg_line_step_cuda(a.L, a.h, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3), block_ptr(b, 4),
                     vector_ptr(b, 5), vector_ptr(b, 6), starpu_cuda_get_local_stream());
}
void direction_cuda(void* b[], void* arg) {
  EllipticTaskArgs a;
  starpu_codelet_unpack_args(arg, &a);
  pcg_line_direction_cuda(a.L, a.h, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3),
                          block_ptr(b, 4), block_ptr(b, 5), block_ptr(b, 6), vector_ptr(b, 7), vector_ptr(b, 8), false,
                          starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t iterations_cuda = nullptr;
constexpr starpu_cuda_func_t step_cuda = nullptr;
constexpr starpu_cuda_func_t direction_cuda = nullptr;
#endif

Codelet& step_codelet() {
  static Codelet cl("pcg_line_step", {STARPU_R, STARPU_R, STARPU_R, STARPU_RW, STARPU_W, STARPU_SCRATCH, STARPU_W},
                    step_cpu, step_cuda);
  return cl;
}
Codelet& direction_codelet() {
  static Codelet cl("pcg_line_direction",
                    {STARPU_R, STARPU_R, STARPU_RW, STARPU_R, STARPU_R, STARPU_RW, STARPU_W, STARPU_SCRATCH, STARPU_W},
                    direction_cpu, direction_cuda);
  return cl;
}
Codelet& iterations_codelet() {
  static Codelet cl("pcg_line_iterations",
                    {STARPU_R, STARPU_RW, STARPU_RW, STARPU_RW, STARPU_RW, STARPU_RW, STARPU_RW, STARPU_W,
                     STARPU_SCRATCH, STARPU_W},
                    iterations_cpu, iterations_cuda);
  return cl;
}

}  // namespace

void insert_pcg_line_iterations(const EllipticTaskArgs& e, starpu_data_handle_t coef, starpu_data_handle_t state,
                                starpu_data_handle_t u, starpu_data_handle_t direction0,
                                starpu_data_handle_t direction1, starpu_data_handle_t ap, starpu_data_handle_t r,
                                starpu_data_handle_t z, starpu_data_handle_t scratch, starpu_data_handle_t out,
                                int priority, const ScalarsArgs& after_step, const ScalarsArgs& after_direction,
                                int parity, int count) {
  const Iterations a{e, after_step, after_direction, parity, count};
  Codelet& cl = iterations_codelet();
  insert_task(cl, STARPU_VALUE, &a, sizeof(a), STARPU_R, coef, STARPU_RW, state, STARPU_RW, u, STARPU_RW, direction0,
              STARPU_RW, direction1, STARPU_RW, ap, STARPU_RW, r, STARPU_W, z, STARPU_SCRATCH, scratch, STARPU_W, out,
              STARPU_PRIORITY, priority, STARPU_NAME, cl.name());
}

void insert_pcg_line_step(const EllipticTaskArgs& e, starpu_data_handle_t coef, starpu_data_handle_t state,
                          starpu_data_handle_t ap, starpu_data_handle_t r, starpu_data_handle_t z,
                          starpu_data_handle_t scratch, starpu_data_handle_t out, int priority) {
  Codelet& cl = step_codelet();
  insert_task(cl, STARPU_VALUE, &e, sizeof(e), STARPU_R, coef, STARPU_R, state, STARPU_R, ap, STARPU_RW, r, STARPU_W,
              z, STARPU_SCRATCH, scratch, STARPU_W, out, STARPU_PRIORITY, priority, STARPU_NAME, cl.name());
}

void insert_pcg_line_direction(const EllipticTaskArgs& e, starpu_data_handle_t coef, starpu_data_handle_t state,
                               starpu_data_handle_t u, starpu_data_handle_t p, starpu_data_handle_t z,
                               starpu_data_handle_t p_next, starpu_data_handle_t ap_next, starpu_data_handle_t scratch,
                               starpu_data_handle_t out, int priority) {
  Codelet& cl = direction_codelet();
  insert_task(cl, STARPU_VALUE, &e, sizeof(e), STARPU_R, coef, STARPU_R, state, STARPU_RW, u, STARPU_R, p, STARPU_R,
              z, STARPU_RW, p_next, STARPU_W, ap_next, STARPU_SCRATCH, scratch, STARPU_W, out, STARPU_PRIORITY,
              priority, STARPU_NAME, cl.name());
}

}  // namespace tdc
