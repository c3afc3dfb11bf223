#include "../common/buffers.hpp"
#include "../common/codelet.hpp"
#include "residual_dot.hpp"

namespace tdc {
namespace {

struct UpdateArgs {
  TileLayout L;
  int skip_from, scalar;
};

// Buffers: state, q, r, scratch, out.
void update_cpu(void* b[], void* arg) {
  UpdateArgs a;
  starpu_codelet_unpack_args(arg, &a);
  residual_update_dot_cpu(a.L, vector_ptr(b, 0), a.skip_from, a.scalar, block_ptr(b, 1), block_ptr(b, 2),
                          vector_ptr(b, 4));
}
// Buffers: coef, state, u, f, r, scratch, out.
void residual_cpu(void* b[], void* arg) {
  EllipticTaskArgs a;
  starpu_codelet_unpack_args(arg, &a);
  elliptic_residual_dot_cpu(a.L, a.h, vector_ptr(b, 0), vector_ptr(b, 1), a.skip_from, block_ptr(b, 2),
                            block_ptr(b, 3), block_ptr(b, 4), vector_ptr(b, 6));
}
#if defined(TASKDYCORE_HAVE_CUDA)
void update_cuda(void* b[], void* arg) {
  UpdateArgs a;
  starpu_codelet_unpack_args(arg, &a);
  residual_update_dot_cuda(a.L, vector_ptr(b, 0), a.skip_from, a.scalar, block_ptr(b, 1), block_ptr(b, 2),
                           vector_ptr(b, 3), vector_ptr(b, 4), starpu_cuda_get_local_stream());
}
void residual_cuda(void* b[], void* arg) {
  EllipticTaskArgs a;
  starpu_codelet_unpack_args(arg, &a);
  elliptic_residual_dot_cuda(a.L, a.h, vector_ptr(b, 0), vector_ptr(b, 1), a.skip_from, block_ptr(b, 2),
                             block_ptr(b, 3), block_ptr(b, 4), vector_ptr(b, 5), vector_ptr(b, 6),
                             starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t update_cuda = nullptr, residual_cuda = nullptr;
#endif

const starpu_data_access_mode R = STARPU_R, RW = STARPU_RW, W = STARPU_W, S = STARPU_SCRATCH;
Codelet& update_codelet() {
  static Codelet cl("residual_update_dot", {R, R, RW, S, W}, update_cpu, update_cuda);
  return cl;
}
Codelet& residual_codelet() {
  static Codelet cl("elliptic_residual_dot", {R, R, R, R, W, S, W}, residual_cpu, residual_cuda);
  return cl;
}

}  // namespace

void insert_residual_update_dot(const TileLayout& L, int skip_from, int scalar, starpu_data_handle_t state,
                                starpu_data_handle_t q, starpu_data_handle_t r, starpu_data_handle_t scratch,
                                starpu_data_handle_t out, int priority) {
  const UpdateArgs a{L, skip_from, scalar};
  insert_task(update_codelet(), STARPU_VALUE, &a, sizeof(a), R, state, R, q, RW, r, S, scratch, W, out,
              STARPU_PRIORITY, priority, STARPU_NAME, "residual_update_dot");
}

void insert_elliptic_residual_dot(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                                  starpu_data_handle_t u, starpu_data_handle_t f, starpu_data_handle_t r,
                                  starpu_data_handle_t scratch, starpu_data_handle_t out, int priority) {
  insert_task(residual_codelet(), STARPU_VALUE, &a, sizeof(a), R, coef, R, state, R, u, R, f, W, r, S, scratch, W,
              out, STARPU_PRIORITY, priority, STARPU_NAME, "elliptic_residual_dot");
}

}  // namespace tdc
