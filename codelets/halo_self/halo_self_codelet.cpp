#include "halo_self.hpp"

#include "../common/codelet.hpp"

namespace tdc {
namespace {

struct HaloSelf : CodeletSpec<TileLayout, STARPU_RW> {  // field
  static constexpr const char* name = "halo_self";
  static void cpu(const Args& L, Buffers b) { strided_copies_cpu(halo_self_plan(L, b.block(0))); }
  static constexpr auto cuda = [](const Args& L, Buffers b, auto s) {
    strided_copies_cuda(halo_self_plan(L, b.block(0)), s);
  };
};

}  // namespace

void insert_halo_self(const TileLayout& L, starpu_data_handle_t field) {
  CodeletOf<HaloSelf>::insert(L, {field}, {kPrioHalo});
}

}  // namespace tdc
