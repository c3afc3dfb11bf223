#include "../common/codelet.hpp"
#include "../common/strided_copy.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "spectral_precon.hpp"
#include "spectral_precon_kernel.hpp"

namespace tdc {
namespace {

struct TileArgs {
  SpectralPlan p;
  TileLayout L;
};
struct SpectralSolve : CodeletSpec<TileArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_W> {  // tables, state, r, z
  static constexpr const char* name = "spectral_solve";
  static void cpu(const Args& a, Buffers b) {
    spectral_solve_cpu(a.p, b.vector(0), b.vector(1), tile_view(a.L, b.block(2)), tile_view(a.L, b.block(3)));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    spectral_solve_cuda(a.p, b.vector(0), b.vector(1), tile_view(a.L, b.block(2)), tile_view(a.L, b.block(3)), s);
  };
};

// The fused PCG's preconditioner step, then the scalars step folded in (then.tiles == 0: none).
struct PreconArgs {
  SpectralPlan p;
  TileLayout L;
  ScalarsArgs then;
};
// tables, state, q, r, z, dot scratch, partials
struct SpectralPcgPrecon
    : CodeletSpec<PreconArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_RW, STARPU_W, STARPU_SCRATCH, STARPU_W> {
  static constexpr const char* name = "spectral_pcg_precon";
  static void cpu(const Args& a, Buffers b) {
    spectral_pcg_precon_cpu(a.p, a.L, b.vector(0), b.vector(1), b.block(2), b.block(3), b.block(4), b.vector(6));
    fold_scalars_cpu(a.then, b.vector(1), b.vector(6));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    spectral_pcg_precon_cuda(a.p, a.L, b.vector(0), b.vector(1), b.block(2), b.block(3), b.block(4), b.vector(5),
                             b.vector(6), s);
    fold_scalars_cuda(a.then, b.vector(1), b.vector(6), s);
  };
};
// With the scalars step folded in, writing the state.
struct SpectralPcgPreconScalars : SpectralPcgPrecon {
  static constexpr const char* name = "spectral_pcg_precon_scalars";
  static constexpr auto modes = access(STARPU_R, STARPU_RW, STARPU_R, STARPU_RW, STARPU_W, STARPU_SCRATCH, STARPU_W);
};

struct SpectralSolveDense : CodeletSpec<SpectralPlan, STARPU_R, STARPU_R, STARPU_RW> {  // tables, state, dense
  static constexpr const char* name = "spectral_solve_dense";
  static void cpu(const Args& p, Buffers b) {
    spectral_solve_cpu(p, b.vector(0), b.vector(1), dense_view(p, b.vector(2)), dense_view(p, b.vector(2)));
  }
  static constexpr auto cuda = [](const Args& p, Buffers b, auto s) {
    spectral_solve_cuda(p, b.vector(0), b.vector(1), dense_view(p, b.vector(2)), dense_view(p, b.vector(2)), s);
  };
};

// The copy between a tile's interior and its box of the dense array (a "strip" of the whole domain).
// Buffers: state, source, destination (tile -> dense: gather, or dense -> tile: scatter).
struct CopyArgs {
  SpectralPlan p;
  TileLayout L;
  int i0, j0;
  bool gather;
};
struct SpectralGather : CodeletSpec<CopyArgs, STARPU_R, STARPU_R, STARPU_RW> {
  static constexpr const char* name = "spectral_gather";
  static CopyList tile_copy(const Args& a, Buffers b) {
    double* tile = a.gather ? b.block(1) : b.block(2);
    double* dense = a.gather ? b.vector(2) : b.vector(1);
    const StripShape whole{0, 0, a.p.nx, a.p.ny};
    CopyList list;
    list.add(a.gather ? tile_to_strip(a.L, tile, 0, 0, a.L.nx, a.L.ny, dense, whole, a.i0, a.j0)
                      : strip_to_tile(a.L, dense, whole, a.i0, a.j0, tile, 0, 0, a.L.nx, a.L.ny));
    return list;
  }
  static void cpu(const Args& a, Buffers b) {
    if (solver_skips(b.vector(0), a.p.skip_from)) return;
    strided_copies_cpu(tile_copy(a, b));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    strided_copies_cuda(tile_copy(a, b), s, b.vector(0) + state::kDone, double(a.p.skip_from));
  };
};
struct SpectralScatter : SpectralGather {
  static constexpr const char* name = "spectral_scatter";
  static constexpr auto modes = access(STARPU_R, STARPU_R, STARPU_W);
};

}  // namespace

void insert_spectral_solve(const SpectralPlan& p, const TileLayout& L, starpu_data_handle_t tables,
                           starpu_data_handle_t state, starpu_data_handle_t r, starpu_data_handle_t z, int priority) {
  CodeletOf<SpectralSolve>::insert({p, L}, {tables, state, r, z}, {priority});
}

void insert_spectral_pcg_precon(const SpectralPlan& p, const TileLayout& L, starpu_data_handle_t tables,
                                starpu_data_handle_t state, starpu_data_handle_t q, starpu_data_handle_t r,
                                starpu_data_handle_t z, starpu_data_handle_t dot_scratch, starpu_data_handle_t partials,
                                int priority, const ScalarsArgs* then) {
  const PreconArgs a{p, L, then ? *then : ScalarsArgs{}};
  const auto h = {tables, state, q, r, z, dot_scratch, partials};
  if (then)
    CodeletOf<SpectralPcgPreconScalars>::insert(a, h, {priority});
  else
    CodeletOf<SpectralPcgPrecon>::insert(a, h, {priority});
}

void insert_spectral_gather(const SpectralPlan& p, const TileLayout& L, int i0, int j0, starpu_data_handle_t state,
                            starpu_data_handle_t src, starpu_data_handle_t dense, int priority) {
  CodeletOf<SpectralGather>::insert({p, L, i0, j0, true}, {state, src, dense}, {priority});
}

void insert_spectral_solve_dense(const SpectralPlan& p, starpu_data_handle_t tables, starpu_data_handle_t state,
                                 starpu_data_handle_t dense, int priority) {
  CodeletOf<SpectralSolveDense>::insert(p, {tables, state, dense}, {priority});
}

void insert_spectral_scatter(const SpectralPlan& p, const TileLayout& L, int i0, int j0, starpu_data_handle_t state,
                             starpu_data_handle_t dense, starpu_data_handle_t dst, int priority) {
  // On the dense array's rank: only the tile travels back to its owner, not the whole array to it.
  CodeletOf<SpectralScatter>::insert({p, L, i0, j0, false}, {state, dense, dst},
                                     {priority, nullptr, starpu_mpi_data_get_rank(dense)});
}

}  // namespace tdc
