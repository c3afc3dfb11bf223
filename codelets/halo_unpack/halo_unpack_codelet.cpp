#include "halo_unpack.hpp"

#include "../common/codelet.hpp"

namespace tdc {
namespace {

struct UnpackArgs {
  TileLayout L;
  int fields;
  bool own_strips;  // the border cells come from the tile's own strips too
};

// The field, its own four strips (when they hold its border), the neighbours' strips.
int buffers_per_field(const UnpackArgs& a) { return 1 + (a.own_strips ? 4 : 0) + kNeighbourSlots; }

struct HaloUnpack : CodeletSpec<UnpackArgs> {
  static constexpr const char* name = "halo_unpack";
  static constexpr bool variable_buffers = true;
  static std::vector<StridedCopy> copies(const UnpackArgs& a, Buffers b) {
    std::vector<StridedCopy> c;
    for (int f = 0; f < a.fields; ++f) {
      int at = f * buffers_per_field(a);
      double* field = b.block(at++);
      const double* own[4];
      if (a.own_strips)
        for (int s = 0; s < 4; ++s) own[s] = b.vector(at++);
      const double* nb[kNeighbourSlots];
      for (int n = 0; n < kNeighbourSlots; ++n) nb[n] = b.vector(at++);
      halo_unpack_plan(a.L, field, a.own_strips ? own : nullptr, nb).append_to(c);
    }
    return c;
  }
  static void cpu(const Args& a, Buffers b) { strided_copies_cpu(copies(a, b)); }
  // Every field's copies in one launch (each launch costs a GPU more than a strip's copy).
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) { strided_copies_cuda(copies(a, b), s); };
};

}  // namespace

void insert_halo_unpack(const TileLayout& L, const std::vector<UnpackedField>& fields) {
  const bool own_strips = !fields.empty() && fields[0].own != nullptr;
  std::vector<starpu_data_descr> d;
  for (const UnpackedField& f : fields) {
    if ((f.own != nullptr) != own_strips)
      throw std::logic_error("halo_unpack: fields of one task differ in where their border cells come from");
    d.push_back({f.field, STARPU_RW});
    if (own_strips)
      for (int s = 0; s < 4; ++s) d.push_back({f.own[s], STARPU_R});
    for (int n = 0; n < kNeighbourSlots; ++n) d.push_back({f.neighbours[n], STARPU_R});
  }
  CodeletOf<HaloUnpack>::insert(UnpackArgs{L, int(fields.size()), own_strips}, d, {kPrioHalo});
}

}  // namespace tdc
