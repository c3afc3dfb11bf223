#include "../common/codelet.hpp"
#include "residual_max.hpp"

namespace tdc {
namespace {

// coef, u, f, out
struct EllipticResidualMax : CodeletSpec<EllipticTaskArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_W> {
  static constexpr const char* name = "elliptic_residual_max";
  static void cpu(const Args& a, Buffers b) {
    elliptic_residual_max_cpu(a.L, a.h, b.vector(0), b.block(1), b.block(2), b.vector(3));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    elliptic_residual_max_cuda(a.L, a.h, b.vector(0), b.block(1), b.block(2), b.vector(3), s);
  };
};

}  // namespace

void insert_elliptic_residual_max(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t u,
                                  starpu_data_handle_t f, starpu_data_handle_t out, int priority) {
  CodeletOf<EllipticResidualMax>::insert(a, {coef, u, f, out}, {priority});
}

}  // namespace tdc
