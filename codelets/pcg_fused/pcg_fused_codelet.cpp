#include "../common/buffers.hpp"
#include "../common/codelet.hpp"
#include "pcg_fused.hpp"
#include "pcg_fused_kernel.hpp"

namespace tdc {
namespace {

// The task's arguments: the tile's, the scalars step folded in (then.tiles == 0: none), and (apply)
// whether z is read at periodic images instead of through its ghost ring.
struct Args {
  EllipticTaskArgs e;
  ScalarsArgs then;
  int z_periodic = 0;
};

// Buffers: coef, state, u (RW), p (RW), z, q (RW), scratch, out.
void apply_cpu(void* b[], void* arg) {
  Args a;
  starpu_codelet_unpack_args(arg, &a);
  pcg_fused_apply_cpu(a.e.L, a.e.h, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3),
                      block_ptr(b, 4), block_ptr(b, 5), vector_ptr(b, 7), a.z_periodic != 0);
  fold_scalars_cpu(a.then, vector_ptr(b, 1), vector_ptr(b, 7));
}
// Buffers: coef, u, f, r (W), p (W), q (W).
void start_cpu(void* b[], void* arg) {
  EllipticTaskArgs a;
  starpu_codelet_unpack_args(arg, &a);
  pcg_start_cpu(a.L, a.h, vector_ptr(b, 0), block_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3), block_ptr(b, 4),
                block_ptr(b, 5));
}
#if defined(TASKDYCORE_HAVE_CUDA)
void start_cuda(void* b[], void* arg) {
  EllipticTaskArgs a;
  starpu_codelet_unpack_args(arg, &a);
  pcg_start_cuda(a.L, a.h, vector_ptr(b, 0), block_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3), block_ptr(b, 4),
                 block_ptr(b, 5), starpu_cuda_get_local_stream());
}
void apply_cuda(void* b[], void* arg) {
  Args a;
  starpu_codelet_unpack_args(arg, &a);
  pcg_fused_apply_cuda(a.e.L, a.e.h, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3),
                       block_ptr(b, 4), block_ptr(b, 5), vector_ptr(b, 6), vector_ptr(b, 7),
                       starpu_cuda_get_local_stream(), a.z_periodic != 0);
  fold_scalars_cuda(a.then, vector_ptr(b, 1), vector_ptr(b, 7), starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t start_cuda = nullptr;
constexpr starpu_cuda_func_t apply_cuda = nullptr;
#endif

Codelet& start_codelet() {
  static Codelet cl("pcg_start", {STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_W, STARPU_W}, start_cpu, start_cuda);
  return cl;
}
// Each in two forms: reading the state, or (with the scalars step folded in) writing it.
Codelet& apply_codelet(bool writes_state) {
  static Codelet reads("pcg_fused_apply",
                       {STARPU_R, STARPU_R, STARPU_RW, STARPU_RW, STARPU_R, STARPU_RW, STARPU_SCRATCH, STARPU_W},
                       apply_cpu, apply_cuda);
  static Codelet writes("pcg_fused_apply_scalars",
                        {STARPU_R, STARPU_RW, STARPU_RW, STARPU_RW, STARPU_R, STARPU_RW, STARPU_SCRATCH, STARPU_W},
                        apply_cpu, apply_cuda);
  return writes_state ? writes : reads;
}

}  // namespace

void insert_pcg_start(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t u,
                      starpu_data_handle_t f, starpu_data_handle_t r, starpu_data_handle_t p, starpu_data_handle_t q,
                      int priority) {
  insert_task(start_codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_R, coef, STARPU_R, u, STARPU_R, f, STARPU_W, r,
              STARPU_W, p, STARPU_W, q, STARPU_PRIORITY, priority, STARPU_NAME, "pcg_start");
}

void insert_pcg_fused_apply(const EllipticTaskArgs& e, starpu_data_handle_t coef, starpu_data_handle_t state,
                            starpu_data_handle_t u, starpu_data_handle_t p, starpu_data_handle_t z,
                            starpu_data_handle_t q, starpu_data_handle_t scratch, starpu_data_handle_t out,
                            int priority, const ScalarsArgs* then, bool z_periodic) {
  const Args a{e, then ? *then : ScalarsArgs{}, z_periodic ? 1 : 0};
  Codelet& cl = apply_codelet(then != nullptr);
  insert_task(cl, STARPU_VALUE, &a, sizeof(a), STARPU_R, coef, then ? STARPU_RW : STARPU_R, state, STARPU_RW, u,
              STARPU_RW, p, STARPU_R, z, STARPU_RW, q, STARPU_SCRATCH, scratch, STARPU_W, out, STARPU_PRIORITY,
              priority, STARPU_NAME, cl.name());
}

}  // namespace tdc
