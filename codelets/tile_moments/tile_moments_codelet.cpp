#include "../common/codelet.hpp"
#include "tile_moments.hpp"

namespace tdc {
namespace {

struct TileMoments : CodeletSpec<TileLayout, STARPU_R, STARPU_R, STARPU_SCRATCH, STARPU_W> {  // psi, g, scratch, out
  static constexpr const char* name = "tile_moments";
  static void cpu(const Args& L, Buffers b) { tile_moments_cpu(L, b.block(0), b.block(1), b.vector(3)); }
  static constexpr auto cuda = [](const Args& L, Buffers b, auto s) {
    tile_moments_cuda(L, b.block(0), b.block(1), b.vector(2), b.vector(3), s);
  };
};

}  // namespace

std::size_t tile_moments_scratch_bytes(const TileLayout& L) {
  return std::size_t(moment_groups(L)) * kMomentsDoubles * sizeof(double);
}

void insert_tile_moments(const TileLayout& L, starpu_data_handle_t psi, starpu_data_handle_t g,
                         starpu_data_handle_t scratch, starpu_data_handle_t out, int priority) {
  CodeletOf<TileMoments>::insert(L, {psi, g, scratch, out}, {priority});
}

}  // namespace tdc
