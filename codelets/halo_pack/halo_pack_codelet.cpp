#include "halo_pack.hpp"

#include "../common/codelet.hpp"

namespace tdc {
namespace {

struct PackArgs {
  TileLayout L;
  int fields;
};

// Buffers: the fields, then each field's four strips.
struct HaloPack : CodeletSpec<PackArgs> {
  static constexpr const char* name = "halo_pack";
  static constexpr bool variable_buffers = true;
  static std::vector<StridedCopy> copies(const PackArgs& a, Buffers b) {
    std::vector<StridedCopy> c;
    for (int f = 0; f < a.fields; ++f) {
      double* const strips[4] = {b.vector(a.fields + 4 * f), b.vector(a.fields + 4 * f + 1),
                                 b.vector(a.fields + 4 * f + 2), b.vector(a.fields + 4 * f + 3)};
      halo_pack_plan(a.L, b.block(f), strips).append_to(c);
    }
    return c;
  }
  static void cpu(const Args& a, Buffers b) { strided_copies_cpu(copies(a, b)); }
  // Every field's copies in one launch (each launch costs a GPU more than a strip's copy).
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) { strided_copies_cuda(copies(a, b), s); };
};

}  // namespace

void insert_halo_pack(const TileLayout& L, const std::vector<PackedField>& fields, const SendAhead* send) {
  std::vector<starpu_data_descr> d;
  for (const PackedField& f : fields) d.push_back({f.field, STARPU_R});
  for (const PackedField& f : fields)
    for (int s = 0; s < 4; ++s) d.push_back({f.strips[s], STARPU_W});
  TaskOptions o;
  o.priority = kPrioHalo;
  o.send_ahead = send;
  CodeletOf<HaloPack>::insert(PackArgs{L, int(fields.size())}, d, o);
}

}  // namespace tdc
