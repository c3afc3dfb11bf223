#include "../common/codelet.hpp"
#include "buoyancy.hpp"

namespace tdc {
namespace {

struct Buoyancy : CodeletSpec {
  using Args = BuoyancyArgs;
  static constexpr const char* name = "buoyancy";
  static constexpr auto modes = access(R, RW);  // theta, w
  static void cpu(const Args& a, Buffers b) { buoyancy_cpu(a, b.block(0), b.block(1)); }
  template <class Stream>
  static void cuda(const Args& a, Buffers b, Stream s) {
    buoyancy_cuda(a, b.block(0), b.block(1), s);
  }
};

}  // namespace

void insert_buoyancy(const BuoyancyArgs& a, starpu_data_handle_t theta, starpu_data_handle_t w, int priority) {
  CodeletOf<Buoyancy>::insert(a, {theta, w}, {priority});
}

}  // namespace tdc
