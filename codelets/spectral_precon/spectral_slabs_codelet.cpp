#include "../common/codelet.hpp"
#include "spectral_precon.hpp"
#include "spectral_slabs.hpp"

namespace tdc {
namespace {

struct StageArgs {
  SpectralPlan p;
  SlabGeometry g;
  SpectralStage s;
  int n_in, n_out;
};
// Buffers: tables, state, scratch (stage_needs_scratch), the slab's buffer (from_buffer or to_buffer),
// n_in arrays read, n_out arrays written. A stage's arrays are a tile's block or pieces' vectors: both
// hand over their pointer first.
struct SpectralStageSpec : CodeletSpec<StageArgs> {
  static constexpr const char* name = "spectral_transpose";  // a stage without passes
  static constexpr bool variable_buffers = true;
  struct Pointers {
    double *in[kMaxSlabPieces], *out[kMaxSlabPieces], *scratch = nullptr, *buffer = nullptr;
  };
  static void pointers(const Args& a, Buffers b, Pointers& p) {
    int n = 2;
    if (stage_needs_scratch(a.g, a.s)) p.scratch = b.vector(n++);
    if (a.s.from_buffer || a.s.to_buffer) p.buffer = b.vector(n++);
    for (int i = 0; i < a.n_in; ++i) p.in[i] = a.s.from_tile ? b.block(n++) : b.vector(n++);
    for (int i = 0; i < a.n_out; ++i) p.out[i] = a.s.to_tile ? b.block(n++) : b.vector(n++);
  }
  static void cpu(const Args& a, Buffers b) {
    Pointers p;
    pointers(a, b, p);
    spectral_stage_cpu(a.p, a.g, a.s, b.vector(0), b.vector(1), p.in, p.scratch, p.buffer, p.out);
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto stream) {
    Pointers p;
    pointers(a, b, p);
    spectral_stage_cuda(a.p, a.g, a.s, b.vector(0), b.vector(1), p.in, p.scratch, p.buffer, p.out, stream);
  };
};
// The same codelet under the names of its roles, so that each has its own perf model.
struct SpectralSlabPasses : SpectralStageSpec {
  static constexpr const char* name = "spectral_slab_passes";
};
struct SpectralTilePasses : SpectralStageSpec {
  static constexpr const char* name = "spectral_tile_passes";
};

}  // namespace

void insert_spectral_stage(const SpectralPlan& p, const SlabGeometry& g, const SpectralStage& s,
                           starpu_data_handle_t tables, starpu_data_handle_t state, starpu_data_handle_t scratch,
                           starpu_data_handle_t buffer, const std::vector<starpu_data_handle_t>& in,
                           const std::vector<starpu_data_handle_t>& out, int priority, const SendAhead* send_ahead) {
  std::vector<starpu_data_descr> d{{tables, STARPU_R}, {state, STARPU_R}};
  if (stage_needs_scratch(g, s)) d.push_back({scratch, STARPU_SCRATCH});
  // The buffer's first chunk starts it anew; later stages keep the chunks written before. A stage
  // that only reads it (the y pass back into pieces) takes it read-only, so that its chunks do not
  // wait for one another and the worker queues them back to back.
  const bool starts_buffer = s.to_buffer && !s.from_buffer && s.chunk <= 0;
  // (Split chains' way down runs its first passes in the buffer.)
  const bool writes_buffer = s.to_buffer || (s.from_buffer && s.n_passes > 1);
  if (s.from_buffer || s.to_buffer)
    d.push_back({buffer, starts_buffer ? STARPU_W : writes_buffer ? STARPU_RW : STARPU_R});
  for (starpu_data_handle_t h : in) d.push_back({h, STARPU_R});
  // Pieces are written whole; so is z's interior by a stage of the whole tile (z's ghost ring is not
  // read before a halo exchange), and a chunk keeps the others'.
  const bool part_of_z = s.to_tile && s.chunk >= 0 && g.chunks > 1;
  for (starpu_data_handle_t h : out) d.push_back({h, part_of_z ? STARPU_RW : STARPU_W});
  const StageArgs a{p, g, s, int(in.size()), int(out.size())};
  TaskOptions o;
  o.priority = priority;
  o.send_ahead = send_ahead;
  if (s.n_passes == 0)
    CodeletOf<SpectralStageSpec>::insert(a, d, o);
  else if (s.on_slab)
    CodeletOf<SpectralSlabPasses>::insert(a, d, o);
  else
    CodeletOf<SpectralTilePasses>::insert(a, d, o);
}

}  // namespace tdc
