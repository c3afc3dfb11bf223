#include "spectral_precon.hpp"

#include <starpu_mpi.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "../codelets/common/codelet.hpp"
#include "../codelets/common/send_ahead.hpp"
#include "../codelets/fetch_ahead/fetch_ahead.hpp"
#include "../codelets/spectral_precon/spectral_precon.hpp"
#include "../codelets/spectral_precon/spectral_precon_kernel.hpp"

namespace tdc {

SpectralPreconditioner::SpectralPreconditioner(const Decomposition& d, int rank, const ColumnCouplings& h,
                                               const std::vector<double>& coef)
    : d_(d) {
  const TileLayout& L = d.layout();
  std::vector<double> tables;
  plan_ = make_spectral_plan(L.nx * d.tiles_x(), L.ny * d.tiles_y(), L.nz, h, coef, tables);
  tables_ = std::make_unique<RankZeroVector>(rank, tables);
  if (one_task()) return;
  if (L.nx < 2 || L.ny < 2)  // a line pair (i, i + 1) or (j, j + 1) must lie in one tile
    throw std::invalid_argument("spectral preconditioner: tiles must be at least 2 cells wide in x and y");
  if (d.tiles() > kMaxSlabPieces)
    throw std::invalid_argument("spectral preconditioner: more than " + std::to_string(kMaxSlabPieces) + " tiles");
  slabs_ = slab_geometry(plan_, d.tiles_x(), d.tiles_y(), spectral_chunks(), split_chains_allowed());
  std::vector<int> all_tiles;
  for (int t = 0; t < d.tiles(); ++t) all_tiles.push_back(t);
  if (slabs_.split_chains)  // every tile's exchange vector, held with it
    chain_exchange_ = std::make_unique<TileHeldVectors>(
        d, all_tiles, std::vector<long>(d.tiles(), chain_exchange_doubles(plan_, slabs_)));
  // Slab s is held with tile s T / S: with one slab per tile, every device transforms its share.
  std::vector<int> tile_of, slab_host;
  std::vector<long> doubles;
  for (int t = 0; t < d.tiles(); ++t)
    for (int s = 0; s < slabs_.slabs; ++s)
      for (int c = 0; c < slabs_.chunks; ++c) {
        tile_of.push_back(t);
        slab_host.push_back(slab_host_tile(s));
        doubles.push_back(slabs_.piece(t, s, c).cells());
      }
  if (!slabs_.split_chains) {
    to_slabs_ = std::make_unique<TileHeldVectors>(d, tile_of, doubles);
    from_slabs_ = std::make_unique<TileHeldVectors>(d, slab_host, doubles);
  }
  send_ahead_ = send_ahead_enabled();
  // The column flow's buffers hold a part's values from one of its stages to the next (the slab's
  // or the tile's, by the flow); the other stages' passes run on a scratch array where they need one.
  bool slab_buffers = false, tile_buffers = false, slab_scratch = false, tile_scratch = false;
  for (int n = 0; n < spectral_stage_count(slabs_); ++n) {
    const SpectralStage st = spectral_stage(slabs_, L, n, 0);
    (st.on_slab ? slab_buffers : tile_buffers) |= st.from_buffer || st.to_buffer;
    (st.on_slab ? slab_scratch : tile_scratch) |= stage_needs_scratch(slabs_, st);
  }
  std::vector<int> slab_of;
  std::vector<long> slab_doubles, tile_doubles;
  for (int s = 0; s < slabs_.slabs; ++s) {
    slab_of.push_back(slab_host_tile(s));
    slab_doubles.push_back(slabs_.slab(s).cells());
  }
  for (int t = 0; t < d.tiles(); ++t) tile_doubles.push_back(slabs_.tile(t).cells());
  if (slab_buffers) slab_buffers_ = std::make_unique<TileHeldVectors>(d, slab_of, slab_doubles);
  if (tile_buffers) tile_buffers_ = std::make_unique<TileHeldVectors>(d, all_tiles, tile_doubles);
  if (slab_scratch)
    slab_scratch_ = std::make_unique<ScratchBuffer>(*std::max_element(slab_doubles.begin(), slab_doubles.end()) *
                                                    sizeof(double));
  if (tile_scratch)
    tile_scratch_ = std::make_unique<ScratchBuffer>(
        std::max(slabs_.tile(0).cells(), slabs_.split_chains ? chain_scratch_doubles(plan_) : 0L) * sizeof(double));
}

int SpectralPreconditioner::spectral_chunks() {
  const char* v = std::getenv("TASKDYCORE_SPECTRAL_CHUNKS");
  if (!v) return kDefaultChunks;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  if (end == v || *end != '\0' || n < 1 || n > 4096)
    throw std::invalid_argument(std::string("TASKDYCORE_SPECTRAL_CHUNKS must be a whole number from 1 to 4096, not \"") +
                                v + "\"");
  return int(n);  // (slab_geometry takes the largest divisor of nz up to it)
}

bool SpectralPreconditioner::split_chains_allowed() {
  const char* v = std::getenv("TASKDYCORE_SPECTRAL_SPLIT_CHAINS");
  if (!v || std::string(v) == "on") return true;
  if (std::string(v) == "off") return false;
  throw std::invalid_argument(std::string("TASKDYCORE_SPECTRAL_SPLIT_CHAINS must be \"on\" or \"off\", not \"") + v +
                              "\"");
}

int SpectralPreconditioner::tasks_per_tile() const {
  if (one_task()) return 1;
  const TileLayout& L = d_.layout();
  int tasks = 0;
  for (int n = 0; n < spectral_stage_count(slabs_); ++n) {
    const bool on_slab = spectral_stage(slabs_, L, n, 0).on_slab;
    for (int c = 0; c < spectral_stage_chunks(slabs_, n); ++c)
      tasks += (1 + (waits_for_remote_chunk(spectral_stage(slabs_, L, n, 0, c)) ? 1 : 0)) *
               (on_slab ? slabs_.slabs : d_.tiles());
  }
  return (tasks + d_.tiles() - 1) / d_.tiles();
}

// After the first chunk, a stage that writes the buffer or z also waits for the previous chunk's
// task (which writes them in turn): its pieces travel meanwhile, sent ahead by their writers or
// fetched ahead (from other ranks) by a task of their own.
bool SpectralPreconditioner::waits_for_remote_chunk(const SpectralStage& s) const {
  return s.chunk > 0 && !s.from_tile && !s.from_buffer && (s.to_tile || s.to_buffer) && fetch_ahead_enabled();
}

int SpectralPreconditioner::slab_host_tile(int s) const { return int(long(s) * d_.tiles() / slabs_.slabs); }

SpectralPreconditioner::~SpectralPreconditioner() { starpu_mpi_wait_for_all(MPI_COMM_WORLD); }

starpu_data_handle_t SpectralPreconditioner::piece(const TileHeldVectors& v, int t, int s, int c) const {
  return v.handle((t * slabs_.slabs + s) * slabs_.chunks + (c < 0 ? 0 : c));
}

std::vector<starpu_data_handle_t> SpectralPreconditioner::pieces(const TileHeldVectors& v, int t, int s, int c) const {
  std::vector<starpu_data_handle_t> h;  // t < 0: of every tile in slab s; s < 0: of every slab of tile t
  for (int a = t < 0 ? 0 : t; a < (t < 0 ? d_.tiles() : t + 1); ++a)
    for (int b = s < 0 ? 0 : s; b < (s < 0 ? slabs_.slabs : s + 1); ++b) h.push_back(piece(v, a, b, c));
  return h;
}

void SpectralPreconditioner::submit(starpu_data_handle_t state, int skip_from, const TiledField& r,
                                    const TiledField& z) const {
  SpectralPlan p = plan_;
  p.skip_from = skip_from;
  const TileLayout& L = d_.layout();
  if (one_task()) {
    insert_spectral_solve(p, L, tables_->handle(), state, r.handle(0), z.handle(0), kPrioBody);
    return;
  }
  // Tile stages read r, the slabs' pieces or the tile's buffer and write the tiles' pieces, the buffer
  // or z; slab stages read the tiles' pieces or the slab's buffer and write the slabs' pieces or the
  // buffer. Chunk by chunk, so that a chunk's pieces move while the next one's pass runs.
  for (int n = 0; n < spectral_stage_count(slabs_); ++n) {
    const bool on_slab = spectral_stage(slabs_, L, n, 0).on_slab;
    for (int i = 0; i < (on_slab ? slabs_.slabs : d_.tiles()); ++i)
      for (int c = 0; c < spectral_stage_chunks(slabs_, n); ++c) {
        const SpectralStage s = spectral_stage(slabs_, L, n, i, c);
        std::vector<starpu_data_handle_t> in, out;
        if (s.from_tile)
          in = {r.handle(i)};
        else if (slabs_.split_chains)  // the way down: every tile's exchange vector
          for (int t = 0; t < d_.tiles(); ++t) in.push_back(chain_exchange_->handle(t));
        else if (!s.from_buffer)
          in = on_slab ? pieces(*to_slabs_, -1, i, s.chunk) : pieces(*from_slabs_, i, -1, s.chunk);
        if (waits_for_remote_chunk(s))
          insert_fetch_ahead(in, on_slab ? piece(*from_slabs_, 0, i, s.chunk) : r.handle(i));
        if (s.to_tile)
          out = {z.handle(i)};
        else if (slabs_.split_chains)  // the way up: the tile's exchange vector
          out = {chain_exchange_->handle(i)};
        else if (!s.to_buffer)
          out = on_slab ? pieces(*from_slabs_, -1, i, s.chunk) : pieces(*to_slabs_, i, -1, s.chunk);
        const auto& scratch = on_slab ? slab_scratch_ : tile_scratch_;
        const auto& buffers = on_slab ? slab_buffers_ : tile_buffers_;
        insert_spectral_stage(p, slabs_, s, tables_->handle(), state, scratch ? scratch->handle() : nullptr,
                              buffers ? buffers->handle(i) : nullptr, in, out, kPrioBody,
                              s.to_tile || out.empty() ? nullptr : sends_of(n, i, s.chunk, on_slab, out, r));
      }
  }
}

const SendAhead* SpectralPreconditioner::sends_of(int n, int i, int c, bool on_slab,
                                                  const std::vector<starpu_data_handle_t>& out,
                                                  const TiledField& r) const {
  if (!send_ahead_) return nullptr;
  auto [at, fresh] = sends_.try_emplace({n, i, c});
  if (fresh && slabs_.split_chains)  // out: tile i's exchange vector, read by every tile
    for (int t = 0; t < d_.tiles(); ++t) at->second.add(out[0], r.handle(t));
  else if (fresh)  // out: tile i's piece of every slab, or every tile's piece of slab i, in index order
    for (std::size_t k = 0; k < out.size(); ++k)
      at->second.add(out[k], on_slab ? r.handle(int(k)) : piece(*from_slabs_, 0, int(k), c));
  return &at->second;
}

void SpectralPreconditioner::submit_pcg_precon(starpu_data_handle_t state, int skip_from, const TiledField& q,
                                               const TiledField& r, const TiledField& z,
                                               starpu_data_handle_t dot_scratch, starpu_data_handle_t partials,
                                               const ScalarsArgs* then) const {
  if (!one_task()) throw std::logic_error("spectral preconditioner: submit_pcg_precon needs a single tile");
  SpectralPlan p = plan_;
  p.skip_from = skip_from;
  insert_spectral_pcg_precon(p, d_.layout(), tables_->handle(), state, q.handle(0), r.handle(0), z.handle(0),
                             dot_scratch, partials, kPrioBody, then);
}

}  // namespace tdc
