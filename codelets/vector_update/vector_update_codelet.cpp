#include "../common/codelet.hpp"
#include "vector_update.hpp"

namespace tdc {
namespace {

struct VectorUpdate : CodeletSpec<VectorUpdateArgs, STARPU_R, STARPU_R, STARPU_RW> {  // state, x, y
  static constexpr const char* name = "vector_update";
  static void cpu(const Args& a, Buffers b) { vector_update_cpu(a, b.vector(0), b.block(1), b.block(2)); }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    vector_update_cuda(a, b.vector(0), b.block(1), b.block(2), s);
  };
};
// y is only written (its old value has no weight).
struct VectorAssign : VectorUpdate {
  static constexpr const char* name = "vector_assign";
  static constexpr auto modes = access(STARPU_R, STARPU_R, STARPU_W);
};

}  // namespace

void insert_vector_update(const VectorUpdateArgs& a, starpu_data_handle_t state, starpu_data_handle_t x,
                          starpu_data_handle_t y, int priority) {
  if (a.ib < 0 && a.sb == 0.0)
    CodeletOf<VectorAssign>::insert(a, {state, x, y}, {priority});
  else
    CodeletOf<VectorUpdate>::insert(a, {state, x, y}, {priority});
}

}  // namespace tdc
