#include "halo_self.hpp"

#include "../common/codelet.hpp"

namespace tdc {
namespace {

struct SelfArgs {
  TileLayout L;
  int fields;
};

struct HaloSelf : CodeletSpec<SelfArgs> {  // the fields
  static constexpr const char* name = "halo_self";
  static constexpr bool variable_buffers = true;
  static void cpu(const Args& a, Buffers b) {
    for (int f = 0; f < a.fields; ++f) strided_copies_cpu(halo_self_plan(a.L, b.block(f)));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    for (int f = 0; f < a.fields; ++f) strided_copies_cuda(halo_self_plan(a.L, b.block(f)), s);
  };
};

}  // namespace

void insert_halo_self(const TileLayout& L, const std::vector<starpu_data_handle_t>& fields) {
  std::vector<starpu_data_descr> d;
  for (starpu_data_handle_t f : fields) d.push_back({f, STARPU_RW});
  CodeletOf<HaloSelf>::insert(SelfArgs{L, int(fields.size())}, d, {kPrioHalo});
}

}  // namespace tdc
