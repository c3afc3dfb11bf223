#include "../common/codelet.hpp"
#include "dot_partial.hpp"

namespace tdc {
namespace {

struct DotArgs {
  TileLayout L;
  int skip_from;
};
// state, x, y, z, scratch, out
struct DotPartial : CodeletSpec<DotArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_SCRATCH, STARPU_W> {
  static constexpr const char* name = "dot_partial";
  static void cpu(const Args& a, Buffers b) {
    dot_partial_cpu(a.L, b.vector(0), a.skip_from, b.block(1), b.block(2), b.block(3), b.vector(5));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    dot_partial_cuda(a.L, b.vector(0), a.skip_from, b.block(1), b.block(2), b.block(3), b.vector(4), b.vector(5), s);
  };
};

}  // namespace

void insert_dot_partial(const TileLayout& L, int skip_from, starpu_data_handle_t state, starpu_data_handle_t x,
                        starpu_data_handle_t y, starpu_data_handle_t z, starpu_data_handle_t scratch,
                        starpu_data_handle_t out, int priority) {
  CodeletOf<DotPartial>::insert({L, skip_from}, {state, x, y, z, scratch, out}, {priority});
}

}  // namespace tdc
