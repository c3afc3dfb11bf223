#include "tiled_field.hpp"

#include <starpu_mpi.h>

#include "../../codelets/common/peer_copied_vector.hpp"
#include "../../codelets/common/tile_placement.hpp"
#include "../../codelets/halo_unpack/halo_unpack_plan.hpp"

#include <cstring>
#include <stdexcept>

namespace tdc {

std::int64_t next_data_tag() {
  static std::int64_t tag = 1;
  return tag++;
}

namespace {

// Gives `h` (data of tile t) the home GPU of t among the tiles its owner rank holds.
void place(const Decomposition& d, starpu_data_handle_t h, int t) {
  int index = 0, count = 0;
  for (int u = 0; u < d.tiles(); ++u)
    if (d.owner(u) == d.owner(t)) {
      if (u < t) ++index;
      ++count;
    }
  place_tile_data(h, index, count);
}

void unregister_all(const std::vector<starpu_data_handle_t>& handles) {
  for (auto h : handles) {
    forget_tile_data(h);
    starpu_data_unregister(h);
  }
}

}  // namespace

TiledField::TiledField(std::string name, const Decomposition& d, int rank, bool host_memory)
    : name_(std::move(name)), host_(d.tiles(), nullptr), handles_(d.tiles(), nullptr) {
  const TileLayout& L = d.layout();
  bytes_ = L.size() * sizeof(double);
  for (int t = 0; t < d.tiles(); ++t) {
    const int owner = d.owner(t);
    int home = -1;
    if (owner == rank && host_memory) {
      void* p = nullptr;
      if (starpu_malloc(&p, bytes_) != 0) throw std::runtime_error("cannot allocate field " + name_);
      std::memset(p, 0, bytes_);
      host_[t] = static_cast<double*>(p);
      home = STARPU_MAIN_RAM;
    }
    starpu_block_data_register(&handles_[t], home, reinterpret_cast<uintptr_t>(host_[t]), L.sx(), L.plane(), L.sx(),
                               L.sy(), L.nz, sizeof(double));
    starpu_mpi_data_register(handles_[t], next_data_tag(), owner);
    place(d, handles_[t], t);
  }
}

TiledField::~TiledField() {
  for (std::size_t t = 0; t < handles_.size(); ++t) {
    forget_tile_data(handles_[t]);
    starpu_data_unregister(handles_[t]);
    if (host_[t]) starpu_free_noflag(host_[t], bytes_);
  }
}

TileStrips::TileStrips(const Decomposition& d, int rank) : handles_(4 * d.tiles(), nullptr) {
  (void)rank;  // StarPU allocates strips where they are produced; only their owner matters
  for (int t = 0; t < d.tiles(); ++t)
    for (int s = 0; s < 4; ++s) {
      register_peer_copied_vector(&handles_[4 * t + s], strip_size(d.layout(), s));
      starpu_mpi_data_register(handles_[4 * t + s], next_data_tag(), d.owner(t));
      place(d, handles_[4 * t + s], t);
    }
  if (d.tiles() < 2 || !send_ahead_enabled()) return;
  sends_.resize(d.tiles());
  for (int u = 0; u < d.tiles(); ++u)  // tile u reads its neighbours' strips where its own live
    for (int s = 0; s < kNeighbourSlots; ++s) {
      int dx, dy;
      neighbour_offset(s, dx, dy);
      const int t = d.neighbour(u, dx, dy);
      if (t != u) sends_[t].add(side(t, neighbour_strip_side(s)), side(u, 0));
    }
}

TileStrips::~TileStrips() {
  if (!sends_.empty()) starpu_task_wait_for_all();
  unregister_all(handles_);
}

TileHeldVectors::TileHeldVectors(const Decomposition& d, const std::vector<int>& tiles,
                                 const std::vector<long>& doubles)
    : handles_(tiles.size(), nullptr) {
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    register_peer_copied_vector(&handles_[i], std::size_t(doubles[i]));
    starpu_mpi_data_register(handles_[i], next_data_tag(), d.owner(tiles[i]));
    place(d, handles_[i], tiles[i]);
  }
}

TileHeldVectors::~TileHeldVectors() { unregister_all(handles_); }

namespace {
std::vector<int> every_tile(const Decomposition& d) {
  std::vector<int> t(d.tiles());
  for (int i = 0; i < d.tiles(); ++i) t[i] = i;
  return t;
}
}  // namespace

TileVectors::TileVectors(const Decomposition& d, int rank, int doubles)
    : TileHeldVectors(d, every_tile(d), std::vector<long>(d.tiles(), doubles)) {
  (void)rank;  // StarPU allocates each where it is first written; only its owner matters
}

RankZeroVector::RankZeroVector(int rank, int doubles) : RankZeroVector(rank, std::vector<double>(doubles, 0.0)) {}

RankZeroVector::RankZeroVector(int rank, const std::vector<double>& values)
    : host_(rank == 0 ? values : std::vector<double>()) {
  starpu_vector_data_register(&handle_, rank == 0 ? STARPU_MAIN_RAM : -1,
                              rank == 0 ? reinterpret_cast<uintptr_t>(host_.data()) : 0, values.size(), sizeof(double));
  starpu_mpi_data_register(handle_, next_data_tag(), 0);
}

RankZeroVector::~RankZeroVector() { starpu_data_unregister(handle_); }

ScratchBuffer::ScratchBuffer(std::size_t bytes) {
  starpu_vector_data_register(&handle_, -1, 0, (bytes + sizeof(double) - 1) / sizeof(double), sizeof(double));
}

ScratchBuffer::~ScratchBuffer() { starpu_data_unregister(handle_); }

void gather_field(const Decomposition& d, const TiledField& f, int rank, std::vector<double>& global) {
  const TileLayout& L = d.layout();
  const int gnx = L.nx * d.tiles_x(), gny = L.ny * d.tiles_y();
  if (rank == 0) global.assign(std::size_t(gnx) * gny * L.nz, 0.0);
  for (int t = 0; t < d.tiles(); ++t) {
    starpu_mpi_get_data_on_node(MPI_COMM_WORLD, f.handle(t), 0);
    if (rank != 0) continue;
    starpu_data_acquire(f.handle(t), STARPU_R);
    const double* p = static_cast<const double*>(starpu_data_handle_to_pointer(f.handle(t), STARPU_MAIN_RAM));
    const int ox = d.origin_x(t), oy = d.origin_y(t);
    for (int k = 0; k < L.nz; ++k)
      for (int j = 0; j < L.ny; ++j)
        std::memcpy(&global[(std::size_t(k) * gny + oy + j) * gnx + ox], p + L.at(0, j, k), L.nx * sizeof(double));
    starpu_data_release(f.handle(t));
  }
}

void load_interiors(const Decomposition& d, const std::vector<double>& global, TiledField& f) {
  const TileLayout& L = d.layout();
  const int gnx = L.nx * d.tiles_x(), gny = L.ny * d.tiles_y();
  for (int t = 0; t < d.tiles(); ++t) {
    if (!f.owned(t)) continue;
    for (int k = 0; k < L.nz; ++k)
      for (int j = 0; j < L.ny; ++j)
        for (int i = 0; i < L.nx; ++i)
          f.host(t)[L.at(i, j, k)] = global[(std::size_t(k) * gny + d.origin_y(t) + j) * gnx + d.origin_x(t) + i];
  }
}

}  // namespace tdc
