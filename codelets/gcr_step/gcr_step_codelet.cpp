#include <stdexcept>
#include <utility>

#include "../common/codelet.hpp"
#include "gcr_step.hpp"
#include "gcr_step_kernel.hpp"

namespace tdc {
namespace {

// coef, state, x, r, p_last, q_last, e, scratch, out
struct GcrPrecon : CodeletSpec<EllipticTaskArgs, STARPU_R, STARPU_R, STARPU_RW, STARPU_RW, STARPU_R, STARPU_R, STARPU_W,
                               STARPU_SCRATCH, STARPU_W> {
  static constexpr const char* name = "gcr_precon";
  static void cpu(const Args& a, Buffers b) {
    gcr_precon_cpu(a.L, b.vector(0), b.vector(1), a.h.s, b.block(2), b.block(3), b.block(4), b.block(5), b.block(6),
                   b.vector(8));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    gcr_precon_cuda(a.L, b.vector(0), b.vector(1), a.h.s, b.block(2), b.block(3), b.block(4), b.block(5), b.block(6),
                    b.vector(7), b.vector(8), s);
  };
};

// The m directions kept: p_n (where first_p >= 0) and q_n from their first buffers on.
struct BasisArgs {
  EllipticTaskArgs e;
  int m;
};
GcrBasis basis_from(Buffers b, int first_p, int first_q, int m) {
  GcrBasis g;
  g.m = m;
  for (int n = 0; n < m; ++n) {
    if (first_p >= 0) g.p[n] = b.block(first_p + n);
    g.q[n] = b.block(first_q + n);
  }
  return g;
}

// One codelet per basis size M (the buffer count differs); each learns its own cost.
constexpr const char* kApplyNames[] = {"gcr_apply_m0", "gcr_apply_m1", "gcr_apply_m2", "gcr_apply_m3", "gcr_apply_m4"};
constexpr const char* kDirectionNames[] = {"gcr_direction_m0", "gcr_direction_m1", "gcr_direction_m2",
                                           "gcr_direction_m3", "gcr_direction_m4"};
static_assert(sizeof(kApplyNames) / sizeof(kApplyNames[0]) == kMaxGcrOld + 1, "one name per basis size");

template <int M>
struct GcrApply : CodeletSpec<BasisArgs> {
  static constexpr const char* name = kApplyNames[M];
  // coef, state, e, ae, scratch, out, q_0 .. q_{M-1}
  static constexpr auto modes =
      append<6, M>(access(STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_SCRATCH, STARPU_W), STARPU_R);
  static void cpu(const Args& a, Buffers b) {
    gcr_apply_cpu(a.e.L, a.e.h, b.vector(0), b.vector(1), b.block(2), b.block(3), basis_from(b, -1, 6, a.m),
                  b.vector(5));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    gcr_apply_cuda(a.e.L, a.e.h, b.vector(0), b.vector(1), b.block(2), b.block(3), basis_from(b, -1, 6, a.m),
                   b.vector(4), b.vector(5), s);
  };
};

template <int M>
struct GcrDirection : CodeletSpec<BasisArgs> {
  static constexpr const char* name = kDirectionNames[M];
  // state, e, r, p_new, q_new, scratch, out, p_0 .. p_{M-1}, q_0 .. q_{M-1}
  static constexpr auto modes =
      append<7, 2 * M>(access(STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_RW, STARPU_SCRATCH, STARPU_W), STARPU_R);
  static void cpu(const Args& a, Buffers b) {
    gcr_direction_cpu(a.e.L, b.vector(0), b.block(1), b.block(2), b.block(3), b.block(4),
                      basis_from(b, 7, 7 + a.m, a.m), b.vector(6));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    gcr_direction_cuda(a.e.L, b.vector(0), b.block(1), b.block(2), b.block(3), b.block(4),
                       basis_from(b, 7, 7 + a.m, a.m), b.vector(5), b.vector(6), s);
  };
};

// The task of the codelet for m directions.
template <template <int> class Spec, std::size_t... M>
void insert_for_basis(const BasisArgs& a, const std::vector<starpu_data_handle_t>& h, const TaskOptions& o,
                      std::index_sequence<M...>) {
  if (a.m < 0 || a.m > kMaxGcrOld) throw std::logic_error("GCR basis larger than kMaxGcrOld");
  ((a.m == int(M) ? CodeletOf<Spec<int(M)>>::insert(a, h, o) : void()), ...);
}
template <template <int> class Spec>
void insert_for_basis(const BasisArgs& a, const std::vector<starpu_data_handle_t>& h, const TaskOptions& o) {
  insert_for_basis<Spec>(a, h, o, std::make_index_sequence<kMaxGcrOld + 1>{});
}

}  // namespace

void insert_gcr_precon(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                       starpu_data_handle_t x, starpu_data_handle_t r, starpu_data_handle_t p_last,
                       starpu_data_handle_t q_last, starpu_data_handle_t e, starpu_data_handle_t scratch,
                       starpu_data_handle_t out, int priority) {
  CodeletOf<GcrPrecon>::insert(a, {coef, state, x, r, p_last, q_last, e, scratch, out}, {priority});
}

void insert_gcr_apply(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                      starpu_data_handle_t e, starpu_data_handle_t ae, const std::vector<starpu_data_handle_t>& basis_q,
                      starpu_data_handle_t scratch, starpu_data_handle_t out, int priority) {
  std::vector<starpu_data_handle_t> h{coef, state, e, ae, scratch, out};
  h.insert(h.end(), basis_q.begin(), basis_q.end());
  insert_for_basis<GcrApply>({a, int(basis_q.size())}, h, {priority, "gcr_apply"});
}

void insert_gcr_direction(const EllipticTaskArgs& a, starpu_data_handle_t state, starpu_data_handle_t e,
                          starpu_data_handle_t r, starpu_data_handle_t p_new, starpu_data_handle_t q_new,
                          const std::vector<starpu_data_handle_t>& basis_p,
                          const std::vector<starpu_data_handle_t>& basis_q, starpu_data_handle_t scratch,
                          starpu_data_handle_t out, int priority) {
  std::vector<starpu_data_handle_t> h{state, e, r, p_new, q_new, scratch, out};
  h.insert(h.end(), basis_p.begin(), basis_p.end());
  h.insert(h.end(), basis_q.begin(), basis_q.end());
  insert_for_basis<GcrDirection>({a, int(basis_p.size())}, h, {priority, "gcr_direction"});
}

}  // namespace tdc
