#include "../common/codelet.hpp"
#include "spectral_precon.hpp"
#include "spectral_slabs.hpp"

namespace tdc {
namespace {

struct TileArgs {
  SlabGeometry g;
  SpectralPlan p;
  TileLayout L;
};
// Buffers: state, tile, then its piece of every slab.
struct SpectralPackTile : CodeletSpec<TileArgs> {
  static constexpr const char* name = "spectral_pack_tile";
  static constexpr bool variable_buffers = true;
  static void pieces(const Args& a, Buffers b, int first, double** p) {
    for (int s = 0; s < a.g.slabs; ++s) p[s] = b.vector(first + s);
  }
  static void cpu(const Args& a, Buffers b) {
    double* p[kMaxSlabPieces];
    pieces(a, b, 2, p);
    spectral_pack_tile_cpu(a.g, a.p, b.vector(0), a.L, b.block(1), p);
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    double* p[kMaxSlabPieces];
    pieces(a, b, 2, p);
    spectral_pack_tile_cuda(a.g, a.p, b.vector(0), a.L, b.block(1), p, s);
  };
};
// Buffers: state, the pieces of every slab, then the tile.
struct SpectralUnpackTile : SpectralPackTile {
  static constexpr const char* name = "spectral_unpack_tile";
  static void cpu(const Args& a, Buffers b) {
    double* p[kMaxSlabPieces];
    pieces(a, b, 1, p);
    spectral_unpack_tile_cpu(a.g, a.p, b.vector(0), p, a.L, b.block(1 + a.g.slabs));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    double* p[kMaxSlabPieces];
    pieces(a, b, 1, p);
    spectral_unpack_tile_cuda(a.g, a.p, b.vector(0), p, a.L, b.block(1 + a.g.slabs), s);
  };
};

struct SlabArgs {
  SlabGeometry g;
  SpectralPlan p;  // the slab's or the column's plan
  int s;           // the slab (slab steps)
  SlabPasses passes;
  int n;  // pieces in and out
};
// Buffers: tables, state, scratch (the slab or the column), n pieces in, n pieces out.
struct SpectralSlabStep : CodeletSpec<SlabArgs> {
  static constexpr const char* name = "spectral_slab_step";
  static constexpr bool variable_buffers = true;
  static void pieces(const Args& a, Buffers b, double** in, double** out) {
    for (int i = 0; i < a.n; ++i) {
      in[i] = b.vector(3 + i);
      out[i] = b.vector(3 + a.n + i);
    }
  }
  static void cpu(const Args& a, Buffers b) {
    double *in[kMaxSlabPieces], *out[kMaxSlabPieces];
    pieces(a, b, in, out);
    spectral_slab_step_cpu(a.p, a.g, a.s, b.vector(0), b.vector(1), a.passes, in, b.vector(2), out);
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    double *in[kMaxSlabPieces], *out[kMaxSlabPieces];
    pieces(a, b, in, out);
    spectral_slab_step_cuda(a.p, a.g, a.s, b.vector(0), b.vector(1), a.passes, in, b.vector(2), out, s);
  };
};
struct SpectralColumnStep : SpectralSlabStep {
  static constexpr const char* name = "spectral_column_step";
  static void cpu(const Args& a, Buffers b) {
    double *in[kMaxSlabPieces], *out[kMaxSlabPieces];
    pieces(a, b, in, out);
    spectral_column_step_cpu(a.p, a.g, b.vector(0), b.vector(1), in, b.vector(2), out);
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    double *in[kMaxSlabPieces], *out[kMaxSlabPieces];
    pieces(a, b, in, out);
    spectral_column_step_cuda(a.p, a.g, b.vector(0), b.vector(1), in, b.vector(2), out, s);
  };
};

void add(std::vector<starpu_data_descr>& d, const std::vector<starpu_data_handle_t>& h, starpu_data_access_mode m) {
  for (starpu_data_handle_t x : h) d.push_back({x, m});
}

}  // namespace

void insert_spectral_pack_tile(const SlabGeometry& g, const SpectralPlan& p, const TileLayout& L,
                               starpu_data_handle_t state, starpu_data_handle_t tile,
                               const std::vector<starpu_data_handle_t>& pieces, int priority) {
  std::vector<starpu_data_descr> d{{state, STARPU_R}, {tile, STARPU_R}};
  add(d, pieces, STARPU_W);
  CodeletOf<SpectralPackTile>::insert({g, p, L}, d, {priority});
}

void insert_spectral_unpack_tile(const SlabGeometry& g, const SpectralPlan& p, const TileLayout& L,
                                 starpu_data_handle_t state, const std::vector<starpu_data_handle_t>& pieces,
                                 starpu_data_handle_t tile, int priority) {
  std::vector<starpu_data_descr> d{{state, STARPU_R}};
  add(d, pieces, STARPU_R);
  d.push_back({tile, STARPU_W});  // the interior is written whole; z's ghost ring is not read before a halo exchange
  CodeletOf<SpectralUnpackTile>::insert({g, p, L}, d, {priority});
}

void insert_spectral_slab_step(const SlabGeometry& g, const SpectralPlan& p, int s, SlabPasses passes,
                               starpu_data_handle_t tables, starpu_data_handle_t state, starpu_data_handle_t scratch,
                               const std::vector<starpu_data_handle_t>& in,
                               const std::vector<starpu_data_handle_t>& out, int priority) {
  std::vector<starpu_data_descr> d{{tables, STARPU_R}, {state, STARPU_R}, {scratch, STARPU_SCRATCH}};
  add(d, in, STARPU_R);
  add(d, out, STARPU_W);
  CodeletOf<SpectralSlabStep>::insert({g, p, s, passes, int(in.size())}, d, {priority});
}

void insert_spectral_column_step(const SlabGeometry& g, const SpectralPlan& p, starpu_data_handle_t tables,
                                 starpu_data_handle_t state, starpu_data_handle_t scratch,
                                 const std::vector<starpu_data_handle_t>& in,
                                 const std::vector<starpu_data_handle_t>& out, int priority) {
  std::vector<starpu_data_descr> d{{tables, STARPU_R}, {state, STARPU_R}, {scratch, STARPU_SCRATCH}};
  add(d, in, STARPU_R);
  add(d, out, STARPU_W);
  CodeletOf<SpectralColumnStep>::insert({g, p, 0, SlabPasses::Forward, int(in.size())}, d, {priority});
}

}  // namespace tdc
