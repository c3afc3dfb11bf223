#include "scale_courant.hpp"

#include "../common/codelet.hpp"

namespace tdc {
namespace {

std::size_t count(void* b) {
  return std::size_t(STARPU_BLOCK_GET_NX(b)) * STARPU_BLOCK_GET_NY(b) * STARPU_BLOCK_GET_NZ(b);
}

// The factor; three inputs, three outputs.
struct ScaleCourant : CodeletSpec<double, STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_W, STARPU_W> {
  static constexpr const char* name = "scale_courant";
  static void cpu(double factor, Buffers b) {
    for (int d = 0; d < 3; ++d) scale_cpu(count(b.raw(d)), factor, b.block(d), b.block(3 + d));
  }
  static constexpr auto cuda = [](double factor, Buffers b, auto s) {
    for (int d = 0; d < 3; ++d) scale_cuda(count(b.raw(d)), factor, b.block(d), b.block(3 + d), s);
  };
};

}  // namespace

void insert_scale_courant(double factor, const starpu_data_handle_t s[3], const starpu_data_handle_t c[3]) {
  CodeletOf<ScaleCourant>::insert(factor, {s[0], s[1], s[2], c[0], c[1], c[2]}, {kPrioHalo});
}

}  // namespace tdc
