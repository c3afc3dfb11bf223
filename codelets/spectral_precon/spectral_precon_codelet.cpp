#include "../common/codelet.hpp"
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

}  // namespace tdc
