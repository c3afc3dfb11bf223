#include "../common/buffers.hpp"
#include "../common/codelet.hpp"
#include "multigrid.hpp"
#include "multigrid_kernel.hpp"
#include "multigrid_vcycle.hpp"

namespace tdc {
namespace {

struct JacobiArgs {
  EllipticTaskArgs e;
  double omega;
};
// Restriction and prolongation: e.L is the fine tile, coarse the coarse one.
struct TransferArgs {
  EllipticTaskArgs e;
  TileLayout coarse;
};

void jacobi_first_cpu(void* b[], void* arg) {
  JacobiArgs a;
  starpu_codelet_unpack_args(arg, &a);
  mg_jacobi_cpu(a.e.L, a.e.h, vector_ptr(b, 0), vector_ptr(b, 1), a.e.skip_from, a.omega, true, block_ptr(b, 2),
                nullptr, block_ptr(b, 3));
}
void jacobi_cpu(void* b[], void* arg) {
  JacobiArgs a;
  starpu_codelet_unpack_args(arg, &a);
  mg_jacobi_cpu(a.e.L, a.e.h, vector_ptr(b, 0), vector_ptr(b, 1), a.e.skip_from, a.omega, false, block_ptr(b, 2),
                block_ptr(b, 3), block_ptr(b, 4));
}
void restrict_cpu(void* b[], void* arg) {
  TransferArgs a;
  starpu_codelet_unpack_args(arg, &a);
  mg_restrict_residual_cpu(a.e.L, a.coarse, a.e.h, vector_ptr(b, 0), vector_ptr(b, 1), a.e.skip_from, block_ptr(b, 2),
                           block_ptr(b, 3), block_ptr(b, 4));
}
void prolong_cpu(void* b[], void* arg) {
  TransferArgs a;
  starpu_codelet_unpack_args(arg, &a);
  mg_prolong_add_cpu(a.e.L, a.coarse, a.e.h, vector_ptr(b, 0), a.e.skip_from, block_ptr(b, 1), block_ptr(b, 2));
}
// The single-tile cycle: coefficients, state, r, z, scratch.
void vcycle_cpu(void* b[], void* arg) {
  VcyclePlan p;
  starpu_codelet_unpack_args(arg, &p);
  mg_vcycle_cpu(p, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3), vector_ptr(b, 4));
}
// The fused PCG's preconditioner step: coefficients, state, q, r, z, cycle scratch, dot scratch,
// partials; then the scalars step folded in (then.tiles == 0: none).
struct PcgPreconArgs {
  VcyclePlan plan;
  ScalarsArgs then;
};
void pcg_precon_cpu(void* b[], void* arg) {
  PcgPreconArgs a;
  starpu_codelet_unpack_args(arg, &a);
  mg_pcg_precon_cpu(a.plan, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3), block_ptr(b, 4),
                    vector_ptr(b, 5), vector_ptr(b, 7));
  fold_scalars_cpu(a.then, vector_ptr(b, 1), vector_ptr(b, 7));
}
#if defined(TASKDYCORE_HAVE_CUDA)
void pcg_precon_cuda(void* b[], void* arg) {
  PcgPreconArgs a;
  starpu_codelet_unpack_args(arg, &a);
  mg_pcg_precon_cuda(a.plan, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3), block_ptr(b, 4),
                     vector_ptr(b, 5), vector_ptr(b, 6), vector_ptr(b, 7), starpu_cuda_get_local_stream());
  fold_scalars_cuda(a.then, vector_ptr(b, 1), vector_ptr(b, 7), starpu_cuda_get_local_stream());
}
void vcycle_cuda(void* b[], void* arg) {
  VcyclePlan p;
  starpu_codelet_unpack_args(arg, &p);
  mg_vcycle_cuda(p, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3), vector_ptr(b, 4),
                 starpu_cuda_get_local_stream());
}
void jacobi_first_cuda(void* b[], void* arg) {
  JacobiArgs a;
  starpu_codelet_unpack_args(arg, &a);
  mg_jacobi_cuda(a.e.L, a.e.h, vector_ptr(b, 0), vector_ptr(b, 1), a.e.skip_from, a.omega, true, block_ptr(b, 2),
                 nullptr, block_ptr(b, 3), starpu_cuda_get_local_stream());
}
void jacobi_cuda(void* b[], void* arg) {
  JacobiArgs a;
  starpu_codelet_unpack_args(arg, &a);
  mg_jacobi_cuda(a.e.L, a.e.h, vector_ptr(b, 0), vector_ptr(b, 1), a.e.skip_from, a.omega, false, block_ptr(b, 2),
                 block_ptr(b, 3), block_ptr(b, 4), starpu_cuda_get_local_stream());
}
void restrict_cuda(void* b[], void* arg) {
  TransferArgs a;
  starpu_codelet_unpack_args(arg, &a);
  mg_restrict_residual_cuda(a.e.L, a.coarse, a.e.h, vector_ptr(b, 0), vector_ptr(b, 1), a.e.skip_from, block_ptr(b, 2),
                            block_ptr(b, 3), block_ptr(b, 4), starpu_cuda_get_local_stream());
}
void prolong_cuda(void* b[], void* arg) {
  TransferArgs a;
  starpu_codelet_unpack_args(arg, &a);
  mg_prolong_add_cuda(a.e.L, a.coarse, a.e.h, vector_ptr(b, 0), a.e.skip_from, block_ptr(b, 1), block_ptr(b, 2),
                      starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t pcg_precon_cuda = nullptr, vcycle_cuda = nullptr, jacobi_first_cuda = nullptr, jacobi_cuda = nullptr, restrict_cuda = nullptr,
                             prolong_cuda = nullptr;
#endif

Codelet& vcycle_codelet() {
  static Codelet cl("mg_vcycle", {STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_SCRATCH}, vcycle_cpu, vcycle_cuda);
  return cl;
}
// Reading the state, or (with the scalars step folded in) writing it.
Codelet& pcg_precon_codelet(bool writes_state) {
  static Codelet reads("mg_pcg_precon",
                       {STARPU_R, STARPU_R, STARPU_R, STARPU_RW, STARPU_W, STARPU_SCRATCH, STARPU_SCRATCH, STARPU_W},
                       pcg_precon_cpu, pcg_precon_cuda);
  static Codelet writes("mg_pcg_precon_scalars",
                        {STARPU_R, STARPU_RW, STARPU_R, STARPU_RW, STARPU_W, STARPU_SCRATCH, STARPU_SCRATCH, STARPU_W},
                        pcg_precon_cpu, pcg_precon_cuda);
  return writes_state ? writes : reads;
}
Codelet& jacobi_first_codelet() {
  static Codelet cl("mg_jacobi_first", {STARPU_R, STARPU_R, STARPU_R, STARPU_W}, jacobi_first_cpu, jacobi_first_cuda);
  return cl;
}
Codelet& jacobi_codelet() {
  static Codelet cl("mg_jacobi", {STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W}, jacobi_cpu, jacobi_cuda);
  return cl;
}
Codelet& restrict_codelet() {
  static Codelet cl("mg_restrict_residual", {STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W}, restrict_cpu,
                    restrict_cuda);
  return cl;
}
Codelet& prolong_codelet() {
  static Codelet cl("mg_prolong_add", {STARPU_R, STARPU_R, STARPU_RW}, prolong_cpu, prolong_cuda);
  return cl;
}

}  // namespace

void insert_mg_vcycle(const VcyclePlan& plan, starpu_data_handle_t coef, starpu_data_handle_t state,
                      starpu_data_handle_t r, starpu_data_handle_t z, starpu_data_handle_t scratch, int priority) {
  insert_task(vcycle_codelet(), STARPU_VALUE, &plan, sizeof(plan), STARPU_R, coef, STARPU_R, state, STARPU_R, r,
              STARPU_W, z, STARPU_SCRATCH, scratch, STARPU_PRIORITY, priority, STARPU_NAME, "mg_vcycle");
}

void insert_mg_pcg_precon(const VcyclePlan& plan, starpu_data_handle_t coef, starpu_data_handle_t state,
                          starpu_data_handle_t q, starpu_data_handle_t r, starpu_data_handle_t z,
                          starpu_data_handle_t scratch, starpu_data_handle_t dot_scratch, starpu_data_handle_t partials,
                          int priority, const ScalarsArgs* then) {
  const PcgPreconArgs a{plan, then ? *then : ScalarsArgs{}};
  Codelet& cl = pcg_precon_codelet(then != nullptr);
  insert_task(cl, STARPU_VALUE, &a, sizeof(a), STARPU_R, coef, then ? STARPU_RW : STARPU_R, state, STARPU_R, q,
              STARPU_RW, r, STARPU_W, z, STARPU_SCRATCH, scratch, STARPU_SCRATCH, dot_scratch, STARPU_W, partials,
              STARPU_PRIORITY, priority, STARPU_NAME, cl.name());
}

void insert_mg_jacobi_first(const EllipticTaskArgs& a, double omega, starpu_data_handle_t coef,
                            starpu_data_handle_t state, starpu_data_handle_t r, starpu_data_handle_t z, int priority) {
  const JacobiArgs j{a, omega};
  insert_task(jacobi_first_codelet(), STARPU_VALUE, &j, sizeof(j), STARPU_R, coef, STARPU_R, state, STARPU_R, r,
              STARPU_W, z, STARPU_PRIORITY, priority, STARPU_NAME, "mg_jacobi_first");
}

void insert_mg_jacobi(const EllipticTaskArgs& a, double omega, starpu_data_handle_t coef, starpu_data_handle_t state,
                      starpu_data_handle_t r, starpu_data_handle_t z_in, starpu_data_handle_t z_out, int priority) {
  const JacobiArgs j{a, omega};
  insert_task(jacobi_codelet(), STARPU_VALUE, &j, sizeof(j), STARPU_R, coef, STARPU_R, state, STARPU_R, r, STARPU_R,
              z_in, STARPU_W, z_out, STARPU_PRIORITY, priority, STARPU_NAME, "mg_jacobi");
}

void insert_mg_restrict_residual(const EllipticTaskArgs& a, const TileLayout& coarse, starpu_data_handle_t coef, starpu_data_handle_t state,
                                 starpu_data_handle_t r, starpu_data_handle_t z, starpu_data_handle_t r_coarse,
                                 int priority) {
  const TransferArgs t{a, coarse};
  insert_task(restrict_codelet(), STARPU_VALUE, &t, sizeof(t), STARPU_R, coef, STARPU_R, state, STARPU_R, r, STARPU_R,
              z, STARPU_W, r_coarse, STARPU_PRIORITY, priority, STARPU_NAME, "mg_restrict_residual");
}

void insert_mg_prolong_add(const EllipticTaskArgs& a, const TileLayout& coarse, starpu_data_handle_t state, starpu_data_handle_t z_coarse,
                           starpu_data_handle_t z, int priority) {
  const TransferArgs t{a, coarse};
  insert_task(prolong_codelet(), STARPU_VALUE, &t, sizeof(t), STARPU_R, state, STARPU_R, z_coarse, STARPU_RW, z,
              STARPU_PRIORITY, priority, STARPU_NAME, "mg_prolong_add");
}

}  // namespace tdc
