#include "max_courant.hpp"

#include "../common/codelet.hpp"

namespace tdc {
namespace {

struct MaxCourant : CodeletSpec<MaxCourantArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_W> {  // u, v, w; the maximum
  static constexpr const char* name = "max_courant";
  static void cpu(const Args& a, Buffers b) { max_courant_cpu(a, b.block(0), b.block(1), b.block(2), b.vector(3)); }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    max_courant_cuda(a, b.block(0), b.block(1), b.block(2), b.vector(3), s);
  };
};

}  // namespace

void insert_max_courant(const MaxCourantArgs& a, const starpu_data_handle_t vel[3], starpu_data_handle_t out,
                        int priority) {
  CodeletOf<MaxCourant>::insert(a, {vel[0], vel[1], vel[2], out}, {priority});
}

}  // namespace tdc
