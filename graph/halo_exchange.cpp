#include "halo_exchange.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "../codelets/fetch_ahead/fetch_ahead.hpp"
#include "../codelets/halo_pack/halo_pack.hpp"
#include "../codelets/halo_self/halo_self.hpp"
#include "../codelets/halo_unpack/halo_unpack.hpp"

namespace tdc {

namespace {

// The strips tile t's unpack of `f` reads, one per neighbour slot.
std::array<starpu_data_handle_t, kNeighbourSlots> neighbour_strips(const Decomposition& d, const HaloField& f, int t) {
  std::array<starpu_data_handle_t, kNeighbourSlots> strips{};
  for (int s = 0; s < kNeighbourSlots; ++s) {
    int dx, dy;
    neighbour_offset(s, dx, dy);
    strips[s] = f.strips->side(d.neighbour(t, dx, dy), neighbour_strip_side(s));
  }
  return strips;
}

// own_strips: the border cells come from the tile's own strips (the step's border task wrote them
// there); else the strips were packed from the field and its border is current.
void submit_unpacks(const Decomposition& d, const std::vector<HaloField>& fields, bool own_strips) {
  for (int t = 0; t < d.tiles(); ++t) {
    std::vector<UnpackedField> u;
    for (const HaloField& f : fields) {
      UnpackedField x{f.field->handle(t), own_strips ? f.strips->of(t) : nullptr, {}};
      const auto strips = neighbour_strips(d, f, t);
      std::copy(strips.begin(), strips.end(), x.neighbours);
      u.push_back(x);
    }
    insert_halo_unpack(d.layout(), u);
  }
}

}  // namespace

void submit_strip_fetch_ahead(const Decomposition& d, const HaloField& f) {
  if (d.tiles() < 2) return;
  for (int t = 0; t < d.tiles(); ++t) {
    const auto strips = neighbour_strips(d, f, t);
    insert_fetch_ahead({strips.begin(), strips.end()}, f.field->handle(t));
  }
}

void submit_halo_unpack(const Decomposition& d, const std::vector<HaloField>& fields) {
  submit_unpacks(d, fields, true);
}

void submit_halo_unpack_of_packed(const Decomposition& d, const std::vector<HaloField>& fields) {
  submit_unpacks(d, fields, false);
}

void submit_halo_exchange(const Decomposition& d, const std::vector<HaloField>& fields) {
  // Fields exchanged together need strips of their own: one pack task writes them all.
  for (std::size_t a = 0; a < fields.size(); ++a)
    for (std::size_t b = a + 1; b < fields.size(); ++b)
      if (fields[a].strips == fields[b].strips)
        throw std::logic_error("halo exchange: two fields of one exchange share their strips");
  if (d.tiles_x() == 1 && d.tiles_y() == 1) {  // its own neighbour on every side: one task, no strips
    std::vector<starpu_data_handle_t> h;
    for (const HaloField& f : fields) h.push_back(f.field->handle(0));
    insert_halo_self(d.layout(), h);
    return;
  }
  for (int t = 0; t < d.tiles(); ++t) {
    std::vector<PackedField> p;
    for (const HaloField& f : fields) p.push_back({f.field->handle(t), f.strips->of(t)});
    insert_halo_pack(d.layout(), p, fields.size() == 1 ? fields[0].strips->sends(t) : nullptr);
  }
  submit_halo_unpack_of_packed(d, fields);
}

}  // namespace tdc
