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
  static std::vector<StridedCopy> copies(const Args& a, Buffers b) {
    std::vector<StridedCopy> c;
    for (int f = 0; f < a.fields; ++f) halo_self_plan(a.L, b.block(f)).append_to(c);
    return c;
  }
  static void cpu(const Args& a, Buffers b) { strided_copies_cpu(copies(a, b)); }
  // Every field's copies in one launch (each launch costs a GPU more than a strip's copy).
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) { strided_copies_cuda(copies(a, b), s); };
};

}  // namespace

void insert_halo_self(const TileLayout& L, const std::vector<starpu_data_handle_t>& fields) {
  std::vector<starpu_data_descr> d;
  for (starpu_data_handle_t f : fields) d.push_back({f, STARPU_RW});
  CodeletOf<HaloSelf>::insert(SelfArgs{L, int(fields.size())}, d, {kPrioHalo});
}

}  // namespace tdc
