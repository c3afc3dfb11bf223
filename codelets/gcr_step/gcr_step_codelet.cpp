#include <memory>
#include <string>

#include "../common/buffers.hpp"
#include "../common/codelet.hpp"
#include "gcr_step.hpp"
#include "gcr_step_kernel.hpp"

namespace tdc {
namespace {

// gcr_precon buffers: coef, state, x (RW), r (RW), p_last, q_last, e (W), scratch, out.
void precon_cpu(void* b[], void* arg) {
  EllipticTaskArgs a;
  starpu_codelet_unpack_args(arg, &a);
  gcr_precon_cpu(a.L, vector_ptr(b, 0), vector_ptr(b, 1), a.h.s, block_ptr(b, 2), block_ptr(b, 3), block_ptr(b, 4),
                 block_ptr(b, 5), block_ptr(b, 6), vector_ptr(b, 8));
}

// gcr_apply buffers: coef, state, e, ae (W), scratch, out, q_0 .. q_{m-1}.
GcrBasis basis_from(void* b[], int first_p, int first_q, int m) {
  GcrBasis g;
  g.m = m;
  for (int n = 0; n < m; ++n) {
    if (first_p >= 0) g.p[n] = block_ptr(b, first_p + n);
    g.q[n] = block_ptr(b, first_q + n);
  }
  return g;
}
void apply_cpu(void* b[], void* arg) {
  EllipticTaskArgs a;
  int m;
  starpu_codelet_unpack_args(arg, &a, &m);
  gcr_apply_cpu(a.L, a.h, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3),
                basis_from(b, -1, 6, m), vector_ptr(b, 5));
}

// gcr_direction buffers: state, e, r, p_new (W), q_new (RW), scratch, out, p_0.., q_0...
void direction_cpu(void* b[], void* arg) {
  EllipticTaskArgs a;
  int m;
  starpu_codelet_unpack_args(arg, &a, &m);
  gcr_direction_cpu(a.L, vector_ptr(b, 0), block_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3), block_ptr(b, 4),
                    basis_from(b, 7, 7 + m, m), vector_ptr(b, 6));
}

#if defined(TASKDYCORE_HAVE_CUDA)
void precon_cuda(void* b[], void* arg) {
  EllipticTaskArgs a;
  starpu_codelet_unpack_args(arg, &a);
  gcr_precon_cuda(a.L, vector_ptr(b, 0), vector_ptr(b, 1), a.h.s, block_ptr(b, 2), block_ptr(b, 3), block_ptr(b, 4),
                  block_ptr(b, 5), block_ptr(b, 6), vector_ptr(b, 7), vector_ptr(b, 8),
                  starpu_cuda_get_local_stream());
}
void apply_cuda(void* b[], void* arg) {
  EllipticTaskArgs a;
  int m;
  starpu_codelet_unpack_args(arg, &a, &m);
  gcr_apply_cuda(a.L, a.h, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3),
                 basis_from(b, -1, 6, m), vector_ptr(b, 4), vector_ptr(b, 5), starpu_cuda_get_local_stream());
}
void direction_cuda(void* b[], void* arg) {
  EllipticTaskArgs a;
  int m;
  starpu_codelet_unpack_args(arg, &a, &m);
  gcr_direction_cuda(a.L, vector_ptr(b, 0), block_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3), block_ptr(b, 4),
                     basis_from(b, 7, 7 + m, m), vector_ptr(b, 5), vector_ptr(b, 6), starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t precon_cuda = nullptr;
constexpr starpu_cuda_func_t apply_cuda = nullptr;
constexpr starpu_cuda_func_t direction_cuda = nullptr;
#endif

Codelet& precon_codelet() {
  static Codelet cl("gcr_precon",
                    {STARPU_R, STARPU_R, STARPU_RW, STARPU_RW, STARPU_R, STARPU_R, STARPU_W, STARPU_SCRATCH, STARPU_W},
                    precon_cpu, precon_cuda);
  return cl;
}

// One codelet per basis size m (the buffer count differs); each learns its own cost.
const char* const kApplyNames[] = {"gcr_apply_m0", "gcr_apply_m1", "gcr_apply_m2", "gcr_apply_m3", "gcr_apply_m4"};
const char* const kDirectionNames[] = {"gcr_direction_m0", "gcr_direction_m1", "gcr_direction_m2",
                                       "gcr_direction_m3", "gcr_direction_m4"};
static_assert(sizeof(kApplyNames) / sizeof(kApplyNames[0]) == kMaxGcrOld + 1, "one name per basis size");

Codelet& apply_codelet(int m) {
  static std::unique_ptr<Codelet> cls[kMaxGcrOld + 1];
  if (!cls[m]) {
    switch (m) {
      case 0: cls[m].reset(new Codelet(kApplyNames[0], {STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_SCRATCH, STARPU_W}, apply_cpu, apply_cuda)); break;
      case 1: cls[m].reset(new Codelet(kApplyNames[1], {STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_SCRATCH, STARPU_W, STARPU_R}, apply_cpu, apply_cuda)); break;
      case 2: cls[m].reset(new Codelet(kApplyNames[2], {STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_SCRATCH, STARPU_W, STARPU_R, STARPU_R}, apply_cpu, apply_cuda)); break;
      case 3: cls[m].reset(new Codelet(kApplyNames[3], {STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_SCRATCH, STARPU_W, STARPU_R, STARPU_R, STARPU_R}, apply_cpu, apply_cuda)); break;
      default: cls[m].reset(new Codelet(kApplyNames[4], {STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_SCRATCH, STARPU_W, STARPU_R, STARPU_R, STARPU_R, STARPU_R}, apply_cpu, apply_cuda)); break;
    }
  }
  return *cls[m];
}

Codelet& direction_codelet(int m) {
  static std::unique_ptr<Codelet> cls[kMaxGcrOld + 1];
  if (!cls[m]) {
    const auto R = STARPU_R;
    switch (m) {
      case 0: cls[m].reset(new Codelet(kDirectionNames[0], {R, R, R, STARPU_W, STARPU_RW, STARPU_SCRATCH, STARPU_W}, direction_cpu, direction_cuda)); break;
      case 1: cls[m].reset(new Codelet(kDirectionNames[1], {R, R, R, STARPU_W, STARPU_RW, STARPU_SCRATCH, STARPU_W, R, R}, direction_cpu, direction_cuda)); break;
      case 2: cls[m].reset(new Codelet(kDirectionNames[2], {R, R, R, STARPU_W, STARPU_RW, STARPU_SCRATCH, STARPU_W, R, R, R, R}, direction_cpu, direction_cuda)); break;
      case 3: cls[m].reset(new Codelet(kDirectionNames[3], {R, R, R, STARPU_W, STARPU_RW, STARPU_SCRATCH, STARPU_W, R, R, R, R, R, R}, direction_cpu, direction_cuda)); break;
      default: cls[m].reset(new Codelet(kDirectionNames[4], {R, R, R, STARPU_W, STARPU_RW, STARPU_SCRATCH, STARPU_W, R, R, R, R, R, R, R, R}, direction_cpu, direction_cuda)); break;
    }
  }
  return *cls[m];
}

void check_basis(std::size_t m) {
  if (m > std::size_t(kMaxGcrOld)) throw std::logic_error("GCR basis larger than kMaxGcrOld");
}

}  // namespace

void insert_gcr_precon(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                       starpu_data_handle_t x, starpu_data_handle_t r, starpu_data_handle_t p_last,
                       starpu_data_handle_t q_last, starpu_data_handle_t e, starpu_data_handle_t scratch,
                       starpu_data_handle_t out, int priority) {
  insert_task(precon_codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_R, coef, STARPU_R, state, STARPU_RW, x,
              STARPU_RW, r, STARPU_R, p_last, STARPU_R, q_last, STARPU_W, e, STARPU_SCRATCH, scratch, STARPU_W, out,
              STARPU_PRIORITY, priority, STARPU_NAME, "gcr_precon");
}

void insert_gcr_apply(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                      starpu_data_handle_t e, starpu_data_handle_t ae, const std::vector<starpu_data_handle_t>& basis_q,
                      starpu_data_handle_t scratch, starpu_data_handle_t out, int priority) {
  check_basis(basis_q.size());
  const int m = int(basis_q.size());
  std::vector<starpu_data_descr> d;
  for (starpu_data_handle_t h : basis_q) d.push_back({h, STARPU_R});
  insert_task(apply_codelet(m), STARPU_VALUE, &a, sizeof(a), STARPU_VALUE, &m, sizeof(m), STARPU_R, coef, STARPU_R,
              state, STARPU_R, e, STARPU_W, ae, STARPU_SCRATCH, scratch, STARPU_W, out, STARPU_DATA_MODE_ARRAY,
              d.data(), m, STARPU_PRIORITY, priority, STARPU_NAME, "gcr_apply");
}

void insert_gcr_direction(const EllipticTaskArgs& a, starpu_data_handle_t state, starpu_data_handle_t e,
                          starpu_data_handle_t r, starpu_data_handle_t p_new, starpu_data_handle_t q_new,
                          const std::vector<starpu_data_handle_t>& basis_p,
                          const std::vector<starpu_data_handle_t>& basis_q, starpu_data_handle_t scratch,
                          starpu_data_handle_t out, int priority) {
  check_basis(basis_p.size());
  const int m = int(basis_p.size());
  std::vector<starpu_data_descr> d;
  for (starpu_data_handle_t h : basis_p) d.push_back({h, STARPU_R});
  for (starpu_data_handle_t h : basis_q) d.push_back({h, STARPU_R});
  insert_task(direction_codelet(m), STARPU_VALUE, &a, sizeof(a), STARPU_VALUE, &m, sizeof(m), STARPU_R, state,
              STARPU_R, e, STARPU_R, r, STARPU_W, p_new, STARPU_RW, q_new, STARPU_SCRATCH, scratch, STARPU_W, out,
              STARPU_DATA_MODE_ARRAY, d.data(), int(d.size()), STARPU_PRIORITY, priority, STARPU_NAME,
              "gcr_direction");
}

}  // namespace tdc
