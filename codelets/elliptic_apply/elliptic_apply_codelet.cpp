#include "../common/codelet.hpp"
#include "elliptic_apply.hpp"
#include "elliptic_apply_kernel.hpp"

namespace tdc {
namespace {

struct EllipticApply : CodeletSpec<EllipticTaskArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_W> {  // coef, state, x, y
  static constexpr const char* name = "elliptic_apply";
  static void cpu(const Args& a, Buffers b) {
    elliptic_apply_cpu(a.L, a.h, b.vector(0), b.vector(1), a.skip_from, b.block(2), b.block(3));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    elliptic_apply_cuda(a.L, a.h, b.vector(0), b.vector(1), a.skip_from, b.block(2), b.block(3), s);
  };
};

}  // namespace

void insert_elliptic_apply(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                           starpu_data_handle_t x, starpu_data_handle_t y, int priority) {
  CodeletOf<EllipticApply>::insert(a, {coef, state, x, y}, {priority});
}

}  // namespace tdc
