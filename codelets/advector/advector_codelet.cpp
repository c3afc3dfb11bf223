#include "../common/codelet.hpp"
#include "advector.hpp"

namespace tdc {
namespace {

VelocityPointers velocities(Buffers b) {
  return {b.block(0), b.block(1), b.block(2), b.block(3), b.block(4), b.block(5)};
}

// six velocities, three Courant numbers
struct Advector : CodeletSpec<AdvectorArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W,
                              STARPU_W, STARPU_W> {
  static constexpr const char* name = "advector";
  static void cpu(const Args& a, Buffers b) { advector_cpu(a, velocities(b), b.block(6), b.block(7), b.block(8)); }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    advector_cuda(a, velocities(b), b.block(6), b.block(7), b.block(8), s);
  };
};

}  // namespace

void insert_advector(const AdvectorArgs& a, const starpu_data_handle_t vel[6], const starpu_data_handle_t c[3],
                     int priority) {
  CodeletOf<Advector>::insert(a, {vel[0], vel[1], vel[2], vel[3], vel[4], vel[5], c[0], c[1], c[2]}, {priority});
}

}  // namespace tdc
