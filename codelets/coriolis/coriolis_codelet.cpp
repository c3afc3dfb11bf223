#include "../common/codelet.hpp"
#include "coriolis.hpp"

namespace tdc {
namespace {

// u^n, v^n, u^(n-1), v^(n-1), u~, v~
struct Coriolis : CodeletSpec<CoriolisArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_RW, STARPU_RW> {
  static constexpr const char* name = "coriolis";
  static void cpu(const Args& a, Buffers b) {
    coriolis_cpu(a, b.block(0), b.block(1), b.block(2), b.block(3), b.block(4), b.block(5));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    coriolis_cuda(a, b.block(0), b.block(1), b.block(2), b.block(3), b.block(4), b.block(5), s);
  };
};

}  // namespace

void insert_coriolis(const CoriolisArgs& a, const starpu_data_handle_t now[2], const starpu_data_handle_t old[2],
                     const starpu_data_handle_t forced[2], int priority) {
  CodeletOf<Coriolis>::insert(a, {now[0], now[1], old[0], old[1], forced[0], forced[1]}, {priority});
}

}  // namespace tdc
