#include "../common/codelet.hpp"
#include "residual_dot.hpp"

namespace tdc {
namespace {

struct UpdateArgs {
  TileLayout L;
  int skip_from, scalar;
};
// state, q, r, scratch, out
struct ResidualUpdateDot : CodeletSpec<UpdateArgs, STARPU_R, STARPU_R, STARPU_RW, STARPU_SCRATCH, STARPU_W> {
  static constexpr const char* name = "residual_update_dot";
  static void cpu(const Args& a, Buffers b) {
    residual_update_dot_cpu(a.L, b.vector(0), a.skip_from, a.scalar, b.block(1), b.block(2), b.vector(4));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    residual_update_dot_cuda(a.L, b.vector(0), a.skip_from, a.scalar, b.block(1), b.block(2), b.vector(3), b.vector(4),
                             s);
  };
};

// coef, state, u, f, r, scratch, out
struct EllipticResidualDot
    : CodeletSpec<EllipticTaskArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_SCRATCH, STARPU_W> {
  static constexpr const char* name = "elliptic_residual_dot";
  static void cpu(const Args& a, Buffers b) {
    elliptic_residual_dot_cpu(a.L, a.h, b.vector(0), b.vector(1), a.skip_from, b.block(2), b.block(3), b.block(4),
                              b.vector(6));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    elliptic_residual_dot_cuda(a.L, a.h, b.vector(0), b.vector(1), a.skip_from, b.block(2), b.block(3), b.block(4),
                               b.vector(5), b.vector(6), s);
  };
};

}  // namespace

void insert_residual_update_dot(const TileLayout& L, int skip_from, int scalar, starpu_data_handle_t state,
                                starpu_data_handle_t q, starpu_data_handle_t r, starpu_data_handle_t scratch,
                                starpu_data_handle_t out, int priority) {
  CodeletOf<ResidualUpdateDot>::insert({L, skip_from, scalar}, {state, q, r, scratch, out}, {priority});
}

void insert_elliptic_residual_dot(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                                  starpu_data_handle_t u, starpu_data_handle_t f, starpu_data_handle_t r,
                                  starpu_data_handle_t scratch, starpu_data_handle_t out, int priority) {
  CodeletOf<EllipticResidualDot>::insert(a, {coef, state, u, f, r, scratch, out}, {priority});
}

}  // namespace tdc
