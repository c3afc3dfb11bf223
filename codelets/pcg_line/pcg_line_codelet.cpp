#include "../common/codelet.hpp"
#include "pcg_line.hpp"
#include "pcg_line_kernel.hpp"

namespace tdc {
namespace {

// coef, state, A p, r, z, scratch, out
struct PcgLineStep
    : CodeletSpec<EllipticTaskArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_RW, STARPU_W, STARPU_SCRATCH, STARPU_W> {
  static constexpr const char* name = "pcg_line_step";
  static void cpu(const Args& a, Buffers b) {
    pcg_line_step_cpu(a.L, a.h, b.vector(0), b.vector(1), b.block(2), b.block(3), b.block(4), b.vector(6));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    pcg_line_step_cuda(a.L, a.h, b.vector(0), b.vector(1), b.block(2), b.block(3), b.block(4), b.vector(5), b.vector(6),
                       s);
  };
};

// Buffers: coef, state, u (RW), p, z, p_next (RW: it holds the direction before p, which u's deferred
// update may read), A p_next (W), scratch, out. The tile reads its ghost rings (several tiles: never
// the whole periodic domain).
struct PcgLineDirection : CodeletSpec<EllipticTaskArgs, STARPU_R, STARPU_R, STARPU_RW, STARPU_R, STARPU_R, STARPU_RW,
                                      STARPU_W, STARPU_SCRATCH, STARPU_W> {
  static constexpr const char* name = "pcg_line_direction";
  static void cpu(const Args& a, Buffers b) {
    pcg_line_direction_cpu(a.L, a.h, b.vector(0), b.vector(1), b.block(2), b.block(3), b.block(4), b.block(5),
                           b.block(6), b.vector(8), false);
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    pcg_line_direction_cuda(a.L, a.h, b.vector(0), b.vector(1), b.block(2), b.block(3), b.block(4), b.block(5),
                            b.block(6), b.vector(7), b.vector(8), false, s);
  };
};

// Several iterations of a single tile on one rank as one task: each step and direction with its scalars
// step, back to back. The same kernels in the same order as the two tasks per iteration.
// Buffers: coef, state (RW), u (RW), direction 0 (RW), direction 1 (RW), A p (RW), r (RW), z (W),
// scratch, out.
struct IterationBuffers {
  double *coef, *st, *u, *dir[2], *ap, *r, *z, *scratch, *out;
  explicit IterationBuffers(Buffers b)
      : coef(b.vector(0)),
        st(b.vector(1)),
        u(b.block(2)),
        dir{b.block(3), b.block(4)},
        ap(b.block(5)),
        r(b.block(6)),
        z(b.block(7)),
        scratch(b.vector(8)),
        out(b.vector(9)) {}
};
struct Iterations {
  EllipticTaskArgs e;
  ScalarsArgs after_step, after_direction;
  int parity = 0;  // which of the two direction buffers holds p in the first iteration
  int count = 0;
};
struct PcgLineIterations : CodeletSpec<Iterations, STARPU_R, STARPU_RW, STARPU_RW, STARPU_RW, STARPU_RW, STARPU_RW,
                                       STARPU_RW, STARPU_W, STARPU_SCRATCH, STARPU_W> {
  static constexpr const char* name = "pcg_line_iterations";
  static void cpu(const Args& a, Buffers b) {
    const IterationBuffers x(b);
    for (int m = 0; m < a.count && !solver_skips(x.st, 2); ++m) {  // (past the end every call returns at once)
      double *p = x.dir[(a.parity + m) % 2], *p_next = x.dir[(a.parity + m + 1) % 2];
      pcg_line_step_cpu(a.e.L, a.e.h, x.coef, x.st, x.ap, x.r, x.z, x.out);
      fold_scalars_cpu(a.after_step, x.st, x.out);
      pcg_line_direction_cpu(a.e.L, a.e.h, x.coef, x.st, x.u, p, x.z, p_next, x.ap, x.out, true);
      fold_scalars_cpu(a.after_direction, x.st, x.out);
    }
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    const IterationBuffers x(b);
    pcg_line_iterations_cuda(a.e.L, a.e.h, x.coef, x.st, x.u, x.dir, x.ap, x.r, x.z, x.scratch, x.out, a.after_step,
                             a.after_direction, a.parity, a.count, s);
  };
};

}  // namespace

void insert_pcg_line_iterations(const EllipticTaskArgs& e, starpu_data_handle_t coef, starpu_data_handle_t state,
                                starpu_data_handle_t u, starpu_data_handle_t direction0,
                                starpu_data_handle_t direction1, starpu_data_handle_t ap, starpu_data_handle_t r,
                                starpu_data_handle_t z, starpu_data_handle_t scratch, starpu_data_handle_t out,
                                int priority, const ScalarsArgs& after_step, const ScalarsArgs& after_direction,
                                int parity, int count) {
  CodeletOf<PcgLineIterations>::insert({e, after_step, after_direction, parity, count},
                                       {coef, state, u, direction0, direction1, ap, r, z, scratch, out}, {priority});
}

void insert_pcg_line_step(const EllipticTaskArgs& e, starpu_data_handle_t coef, starpu_data_handle_t state,
                          starpu_data_handle_t ap, starpu_data_handle_t r, starpu_data_handle_t z,
                          starpu_data_handle_t scratch, starpu_data_handle_t out, int priority) {
  CodeletOf<PcgLineStep>::insert(e, {coef, state, ap, r, z, scratch, out}, {priority});
}

void insert_pcg_line_direction(const EllipticTaskArgs& e, starpu_data_handle_t coef, starpu_data_handle_t state,
                               starpu_data_handle_t u, starpu_data_handle_t p, starpu_data_handle_t z,
                               starpu_data_handle_t p_next, starpu_data_handle_t ap_next, starpu_data_handle_t scratch,
                               starpu_data_handle_t out, int priority) {
  CodeletOf<PcgLineDirection>::insert(e, {coef, state, u, p, z, p_next, ap_next, scratch, out}, {priority});
}

}  // namespace tdc
