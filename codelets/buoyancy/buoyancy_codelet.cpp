#include "../common/codelet.hpp"
#include "buoyancy.hpp"

namespace tdc {
namespace {

struct Buoyancy : CodeletSpec<BuoyancyArgs, STARPU_R, STARPU_RW> {  // theta, w
  static constexpr const char* name = "buoyancy";
  static void cpu(const Args& a, Buffers b) { buoyancy_cpu(a, b.block(0), b.block(1)); }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) { buoyancy_cuda(a, b.block(0), b.block(1), s); };
};

}  // namespace

void insert_buoyancy(const BuoyancyArgs& a, starpu_data_handle_t theta, starpu_data_handle_t w, int priority) {
  CodeletOf<Buoyancy>::insert(a, {theta, w}, {priority});
}

}  // namespace tdc
