#include "../common/buffers.hpp"
#include "../common/codelet.hpp"
#include "pcg_fused.hpp"
#include "pcg_fused_kernel.hpp"

namespace tdc {
namespace {

// Buffers: coef, state, r (RW), q, z (W), scratch, out.
void precon_cpu(void* b[], void* arg) {
  EllipticTaskArgs a;
  starpu_codelet_unpack_args(arg, &a);
  pcg_fused_precon_cpu(a.L, vector_ptr(b, 0), vector_ptr(b, 1), a.h.s, block_ptr(b, 2), block_ptr(b, 3), block_ptr(b, 4),
                       vector_ptr(b, 6));
}
// Buffers: coef, state, u (RW), p (RW), z, q (RW), scratch, out.
void apply_cpu(void* b[], void* arg) {
  EllipticTaskArgs a;
  starpu_codelet_unpack_args(arg, &a);
  pcg_fused_apply_cpu(a.L, a.h, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3),
                      block_ptr(b, 4), block_ptr(b, 5), vector_ptr(b, 7));
}
#if defined(TASKDYCORE_HAVE_CUDA)
void precon_cuda(void* b[], void* arg) {
  EllipticTaskArgs a;
  starpu_codelet_unpack_args(arg, &a);
  pcg_fused_precon_cuda(a.L, vector_ptr(b, 0), vector_ptr(b, 1), a.h.s, block_ptr(b, 2), block_ptr(b, 3), block_ptr(b, 4),
                        vector_ptr(b, 5), vector_ptr(b, 6), starpu_cuda_get_local_stream());
}
void apply_cuda(void* b[], void* arg) {
  EllipticTaskArgs a;
  starpu_codelet_unpack_args(arg, &a);
  pcg_fused_apply_cuda(a.L, a.h, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3),
                       block_ptr(b, 4), block_ptr(b, 5), vector_ptr(b, 6), vector_ptr(b, 7),
                       starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t precon_cuda = nullptr;
constexpr starpu_cuda_func_t apply_cuda = nullptr;
#endif

Codelet& precon_codelet() {
  static Codelet cl("pcg_fused_precon",
                    {STARPU_R, STARPU_R, STARPU_RW, STARPU_R, STARPU_W, STARPU_SCRATCH, STARPU_W}, precon_cpu,
                    precon_cuda);
  return cl;
}
Codelet& apply_codelet() {
  static Codelet cl("pcg_fused_apply",
                    {STARPU_R, STARPU_R, STARPU_RW, STARPU_RW, STARPU_R, STARPU_RW, STARPU_SCRATCH, STARPU_W},
                    apply_cpu, apply_cuda);
  return cl;
}

}  // namespace

void insert_pcg_fused_precon(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                             starpu_data_handle_t r, starpu_data_handle_t q, starpu_data_handle_t z,
                             starpu_data_handle_t scratch, starpu_data_handle_t out, int priority) {
  insert_task(precon_codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_R, coef, STARPU_R, state, STARPU_RW, r,
              STARPU_R, q, STARPU_W, z, STARPU_SCRATCH, scratch, STARPU_W, out, STARPU_PRIORITY, priority,
              STARPU_NAME, "pcg_fused_precon");
}

void insert_pcg_fused_apply(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                            starpu_data_handle_t u, starpu_data_handle_t p, starpu_data_handle_t z,
                            starpu_data_handle_t q, starpu_data_handle_t scratch, starpu_data_handle_t out,
                            int priority) {
  insert_task(apply_codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_R, coef, STARPU_R, state, STARPU_RW, u,
              STARPU_RW, p, STARPU_R, z, STARPU_RW, q, STARPU_SCRATCH, scratch, STARPU_W, out, STARPU_PRIORITY,
              priority, STARPU_NAME, "pcg_fused_apply");
}

}  // namespace tdc
