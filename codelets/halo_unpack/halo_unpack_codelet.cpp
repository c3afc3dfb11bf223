#include "halo_unpack.hpp"

#include "../common/codelet.hpp"

namespace tdc {
namespace {

struct HaloUnpack : CodeletSpec<TileLayout> {
  static constexpr const char* name = "halo_unpack";
  // field, its own four strips, the neighbours' strips
  static constexpr auto modes =
      append<5, kNeighbourSlots>(access(STARPU_RW, STARPU_R, STARPU_R, STARPU_R, STARPU_R), STARPU_R);
  static CopyList plan(const TileLayout& L, Buffers b) {
    const double* own[4];
    const double* nb[kNeighbourSlots];
    for (int s = 0; s < 4; ++s) own[s] = b.vector(1 + s);
    for (int n = 0; n < kNeighbourSlots; ++n) nb[n] = b.vector(5 + n);
    return halo_unpack_plan(L, b.block(0), own, nb);
  }
  static void cpu(const Args& L, Buffers b) { strided_copies_cpu(plan(L, b)); }
  static constexpr auto cuda = [](const Args& L, Buffers b, auto s) { strided_copies_cuda(plan(L, b), s); };
};

}  // namespace

void insert_halo_unpack(const TileLayout& L, starpu_data_handle_t field, const starpu_data_handle_t own[4],
                        const starpu_data_handle_t nb[kNeighbourSlots]) {
  std::vector<starpu_data_handle_t> h{field, own[0], own[1], own[2], own[3]};
  h.insert(h.end(), nb, nb + kNeighbourSlots);
  CodeletOf<HaloUnpack>::insert(L, h, {kPrioHalo});
}

}  // namespace tdc
