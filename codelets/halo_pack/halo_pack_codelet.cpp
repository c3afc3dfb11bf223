#include "halo_pack.hpp"

#include "../common/codelet.hpp"

namespace tdc {
namespace {

struct HaloPack : CodeletSpec<TileLayout, STARPU_R, STARPU_W, STARPU_W, STARPU_W, STARPU_W> {  // field, four strips
  static constexpr const char* name = "halo_pack";
  static CopyList plan(const TileLayout& L, Buffers b) {
    double* const strips[4] = {b.vector(1), b.vector(2), b.vector(3), b.vector(4)};
    return halo_pack_plan(L, b.block(0), strips);
  }
  static void cpu(const Args& L, Buffers b) { strided_copies_cpu(plan(L, b)); }
  static constexpr auto cuda = [](const Args& L, Buffers b, auto s) { strided_copies_cuda(plan(L, b), s); };
};

}  // namespace

void insert_halo_pack(const TileLayout& L, starpu_data_handle_t field, const starpu_data_handle_t strips[4]) {
  CodeletOf<HaloPack>::insert(L, {field, strips[0], strips[1], strips[2], strips[3]}, {kPrioHalo});
}

}  // namespace tdc
