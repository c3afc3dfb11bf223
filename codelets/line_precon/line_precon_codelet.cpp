#include "../common/codelet.hpp"
#include "line_precon.hpp"
#include "line_precon_kernel.hpp"

namespace tdc {
namespace {

struct LinePrecon : CodeletSpec<EllipticTaskArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_W> {  // coef, state, r, z
  static constexpr const char* name = "line_precon";
  static void cpu(const Args& a, Buffers b) {
    line_precon_cpu(a.L, b.vector(0), b.vector(1), a.skip_from, a.h.s, b.block(2), b.block(3));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    line_precon_cuda(a.L, b.vector(0), b.vector(1), a.skip_from, a.h.s, b.block(2), b.block(3), s);
  };
};

}  // namespace

void insert_line_precon(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t state,
                        starpu_data_handle_t r, starpu_data_handle_t z, int priority) {
  CodeletOf<LinePrecon>::insert(a, {coef, state, r, z}, {priority});
}

}  // namespace tdc
