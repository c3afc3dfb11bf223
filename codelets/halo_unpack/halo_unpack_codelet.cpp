#include "halo_unpack.hpp"

#include "../common/codelet.hpp"

namespace tdc {
namespace {

struct UnpackArgs {
  TileLayout L;
  int fields;
};

constexpr int kBuffersPerField = 5 + kNeighbourSlots;  // the field, its own four strips, the neighbours' strips

struct HaloUnpack : CodeletSpec<UnpackArgs> {
  static constexpr const char* name = "halo_unpack";
  static constexpr bool variable_buffers = true;
  static CopyList plan(const UnpackArgs& a, Buffers b, int f) {
    const int at = f * kBuffersPerField;
    const double* own[4];
    const double* nb[kNeighbourSlots];
    for (int s = 0; s < 4; ++s) own[s] = b.vector(at + 1 + s);
    for (int n = 0; n < kNeighbourSlots; ++n) nb[n] = b.vector(at + 5 + n);
    return halo_unpack_plan(a.L, b.block(at), own, nb);
  }
  static void cpu(const Args& a, Buffers b) {
    for (int f = 0; f < a.fields; ++f) strided_copies_cpu(plan(a, b, f));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    for (int f = 0; f < a.fields; ++f) strided_copies_cuda(plan(a, b, f), s);
  };
};

}  // namespace

void insert_halo_unpack(const TileLayout& L, const std::vector<UnpackedField>& fields) {
  std::vector<starpu_data_descr> d;
  for (const UnpackedField& f : fields) {
    d.push_back({f.field, STARPU_RW});
    for (int s = 0; s < 4; ++s) d.push_back({f.own[s], STARPU_R});
    for (int n = 0; n < kNeighbourSlots; ++n) d.push_back({f.neighbours[n], STARPU_R});
  }
  CodeletOf<HaloUnpack>::insert(UnpackArgs{L, int(fields.size())}, d, {kPrioHalo});
}

}  // namespace tdc
