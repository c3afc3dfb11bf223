#include <algorithm>
#include <vector>

#include "../common/codelet.hpp"
#include "../common/strided_copy.hpp"
#include "../halo_pack/halo_pack_plan.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "multigrid.hpp"
#include "multigrid_kernel.hpp"
#include "multigrid_vcycle.hpp"

namespace tdc {
namespace {

// The single-tile cycle: coef, state, r, z, scratch.
struct MgVcycle : CodeletSpec<VcyclePlan, STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_SCRATCH> {
  static constexpr const char* name = "mg_vcycle";
  static void cpu(const Args& p, Buffers b) {
    mg_vcycle_cpu(p, b.vector(0), b.vector(1), b.block(2), b.block(3), b.vector(4));
  }
  static constexpr auto cuda = [](const Args& p, Buffers b, auto s) {
    mg_vcycle_cuda(p, b.vector(0), b.vector(1), b.block(2), b.block(3), b.vector(4), s);
  };
};

// The fused PCG's preconditioner step, then the scalars step folded in (then.tiles == 0: none).
struct PcgPreconArgs {
  VcyclePlan plan;
  ScalarsArgs then;
};
// coef, state, q, r, z, cycle scratch, dot scratch, partials
struct MgPcgPrecon : CodeletSpec<PcgPreconArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_RW, STARPU_W, STARPU_SCRATCH,
                                 STARPU_SCRATCH, STARPU_W> {
  static constexpr const char* name = "mg_pcg_precon";
  static void cpu(const Args& a, Buffers b) {
    mg_pcg_precon_cpu(a.plan, b.vector(0), b.vector(1), b.block(2), b.block(3), b.block(4), b.vector(5), b.vector(7));
    fold_scalars_cpu(a.then, b.vector(1), b.vector(7));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    mg_pcg_precon_cuda(a.plan, b.vector(0), b.vector(1), b.block(2), b.block(3), b.block(4), b.vector(5), b.vector(6),
                       b.vector(7), s);
    fold_scalars_cuda(a.then, b.vector(1), b.vector(7), s);
  };
};
// With the scalars step folded in, writing the state.
struct MgPcgPreconScalars : MgPcgPrecon {
  static constexpr const char* name = "mg_pcg_precon_scalars";
  static constexpr auto modes =
      access(STARPU_R, STARPU_RW, STARPU_R, STARPU_RW, STARPU_W, STARPU_SCRATCH, STARPU_SCRATCH, STARPU_W);
};

struct JacobiArgs {
  EllipticTaskArgs e;
  double omega;
};
// Restriction and prolongation: e.L is the fine tile, coarse the coarse one.
struct TransferArgs {
  EllipticTaskArgs e;
  TileLayout coarse;
};
struct MgJacobiFirst : CodeletSpec<JacobiArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_W> {  // coef, state, r, z
  static constexpr const char* name = "mg_jacobi_first";
  static void cpu(const Args& a, Buffers b) {
    mg_jacobi_cpu(a.e.L, a.e.h, b.vector(0), b.vector(1), a.e.skip_from, a.omega, true, b.block(2), nullptr,
                  b.block(3));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    mg_jacobi_cuda(a.e.L, a.e.h, b.vector(0), b.vector(1), a.e.skip_from, a.omega, true, b.block(2), nullptr,
                   b.block(3), s);
  };
};
// coef, state, r, z_in, z_out
struct MgJacobi : CodeletSpec<JacobiArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W> {
  static constexpr const char* name = "mg_jacobi";
  static void cpu(const Args& a, Buffers b) {
    mg_jacobi_cpu(a.e.L, a.e.h, b.vector(0), b.vector(1), a.e.skip_from, a.omega, false, b.block(2), b.block(3),
                  b.block(4));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    mg_jacobi_cuda(a.e.L, a.e.h, b.vector(0), b.vector(1), a.e.skip_from, a.omega, false, b.block(2), b.block(3),
                   b.block(4), s);
  };
};

// coef, state, r, z, r_coarse
struct MgRestrictResidual : CodeletSpec<TransferArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W> {
  static constexpr const char* name = "mg_restrict_residual";
  static void cpu(const Args& a, Buffers b) {
    mg_restrict_residual_cpu(a.e.L, a.coarse, a.e.h, b.vector(0), b.vector(1), a.e.skip_from, b.block(2), b.block(3),
                             b.block(4));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    mg_restrict_residual_cuda(a.e.L, a.coarse, a.e.h, b.vector(0), b.vector(1), a.e.skip_from, b.block(2), b.block(3),
                              b.block(4), s);
  };
};
struct MgProlongAdd : CodeletSpec<TransferArgs, STARPU_R, STARPU_R, STARPU_RW> {  // state, z_coarse, z
  static constexpr const char* name = "mg_prolong_add";
  static void cpu(const Args& a, Buffers b) {
    mg_prolong_add_cpu(a.e.L, a.coarse, a.e.h, b.vector(0), a.e.skip_from, b.block(1), b.block(2));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    mg_prolong_add_cuda(a.e.L, a.coarse, a.e.h, b.vector(0), a.e.skip_from, b.block(1), b.block(2), s);
  };
};

// A producer that also packs its output's four border strips (halo_pack's copies), as the last
// buffers: the halo exchange after it is the unpacks alone, a task a tile fewer each (the bubble on 4
// tiles submitted some 2100 tasks a step, 43 % of them packs and unpacks: docs/performance.md).
template <class Base, int Out>
struct ThenPack : Base {
  static constexpr auto modes = append<Base::modes.size(), 4>(Base::modes, STARPU_W);
  static CopyList pack(const typename Base::Args& a, Buffers b) {
    constexpr int s = int(Base::modes.size());
    double* const strips[4] = {b.vector(s), b.vector(s + 1), b.vector(s + 2), b.vector(s + 3)};
    return halo_pack_plan(a.e.L, b.block(Out), strips);
  }
  static void cpu(const typename Base::Args& a, Buffers b) {
    Base::cpu(a, b);
    strided_copies_cpu(pack(a, b));
  }
  static constexpr auto cuda = [](const typename Base::Args& a, Buffers b, auto s) {
    Base::cuda(a, b, s);
    strided_copies_cuda(pack(a, b), s);
  };
};
struct MgJacobiFirstPack : ThenPack<MgJacobiFirst, 3> {
  static constexpr const char* name = "mg_jacobi_first_pack";
};
struct MgProlongAddPack : ThenPack<MgProlongAdd, 2> {
  static constexpr const char* name = "mg_prolong_add_pack";
};

// The whole level from its tiles: state, then tiles first..first + count - 1 of the level's
// tiles_x × tiles_y (row-major), then the whole level (W for the first group, RW after).
struct GatherArgs {
  TileLayout tile, whole;
  int tiles_x = 1, first = 0, skip_from = 0;
};
std::vector<StridedCopy> gather_copies(const GatherArgs& a, Buffers b, int count) {
  std::vector<StridedCopy> c;
  double* whole = b.block(count + 1);
  for (int n = 0; n < count; ++n) {
    const int t = a.first + n;
    c.push_back(tile_to_tile(a.tile, b.block(1 + n), 0, 0, a.whole, whole, (t % a.tiles_x) * a.tile.nx,
                             (t / a.tiles_x) * a.tile.ny, a.tile.nx, a.tile.ny));
  }
  return c;
}
struct MgGather : CodeletSpec<GatherArgs> {
  static constexpr const char* name = "mg_gather";
  static constexpr bool variable_buffers = true;
  static int tiles() { return STARPU_TASK_GET_NBUFFERS(starpu_task_get_current()) - 2; }
  static void cpu(const Args& a, Buffers b) {
    if (solver_skips(b.vector(0), a.skip_from)) return;
    strided_copies_cpu(gather_copies(a, b, tiles()));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    strided_copies_cuda(gather_copies(a, b, tiles()), s, b.vector(0) + state::kDone, double(a.skip_from));
  };
};
// Tile (tx, ty) of the whole level: state, whole, tile.
struct ScatterArgs {
  TileLayout whole, tile;
  int tx = 0, ty = 0, skip_from = 0;
};
std::vector<StridedCopy> scatter_copy(const ScatterArgs& a, Buffers b) {
  return {tile_to_tile(a.whole, b.block(1), a.tx * a.tile.nx, a.ty * a.tile.ny, a.tile, b.block(2), 0, 0, a.tile.nx,
                       a.tile.ny)};
}
struct MgScatter : CodeletSpec<ScatterArgs, STARPU_R, STARPU_R, STARPU_W> {
  static constexpr const char* name = "mg_scatter";
  static void cpu(const Args& a, Buffers b) {
    if (solver_skips(b.vector(0), a.skip_from)) return;
    strided_copies_cpu(scatter_copy(a, b));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    strided_copies_cuda(scatter_copy(a, b), s, b.vector(0) + state::kDone, double(a.skip_from));
  };
};

}  // namespace

void insert_mg_gather(const TileLayout& tile, int tiles_x, const TileLayout& whole, int skip_from,
                      starpu_data_handle_t state, const std::vector<starpu_data_handle_t>& tiles,
                      starpu_data_handle_t whole_field, int priority) {
  constexpr int per_task = STARPU_NMAXBUFS - 2;  // besides the state and the whole level
  for (int first = 0; first < int(tiles.size()); first += per_task) {
    std::vector<starpu_data_descr> d{{state, STARPU_R}};
    for (int t = first; t < std::min(int(tiles.size()), first + per_task); ++t) d.push_back({tiles[t], STARPU_R});
    d.push_back({whole_field, first == 0 ? STARPU_W : STARPU_RW});
    CodeletOf<MgGather>::insert(GatherArgs{tile, whole, tiles_x, first, skip_from}, d, {priority});
  }
}

void insert_mg_scatter(const TileLayout& whole, const TileLayout& tile, int tx, int ty, int skip_from,
                       starpu_data_handle_t state, starpu_data_handle_t whole_field, starpu_data_handle_t tile_field,
                       int priority) {
  CodeletOf<MgScatter>::insert(ScatterArgs{whole, tile, tx, ty, skip_from}, {state, whole_field, tile_field},
                               {priority});
}

void insert_mg_vcycle(const VcyclePlan& plan, starpu_data_handle_t coef, starpu_data_handle_t state,
                      starpu_data_handle_t r, starpu_data_handle_t z, starpu_data_handle_t scratch, int priority) {
  CodeletOf<MgVcycle>::insert(plan, {coef, state, r, z, scratch}, {priority});
}

void insert_mg_pcg_precon(const VcyclePlan& plan, starpu_data_handle_t coef, starpu_data_handle_t state,
                          starpu_data_handle_t q, starpu_data_handle_t r, starpu_data_handle_t z,
                          starpu_data_handle_t scratch, starpu_data_handle_t dot_scratch, starpu_data_handle_t partials,
                          int priority, const ScalarsArgs* then) {
  const PcgPreconArgs a{plan, then ? *then : ScalarsArgs{}};
  const auto h = {coef, state, q, r, z, scratch, dot_scratch, partials};
  if (then)
    CodeletOf<MgPcgPreconScalars>::insert(a, h, {priority});
  else
    CodeletOf<MgPcgPrecon>::insert(a, h, {priority});
}

void insert_mg_jacobi_first(const EllipticTaskArgs& a, double omega, starpu_data_handle_t coef,
                            starpu_data_handle_t state, starpu_data_handle_t r, starpu_data_handle_t z, int priority,
                            const starpu_data_handle_t* strips, const SendAhead* send) {
  if (strips)
    CodeletOf<MgJacobiFirstPack>::insert({a, omega}, {coef, state, r, z, strips[0], strips[1], strips[2], strips[3]},
                                         {priority, nullptr, -1, nullptr, send});
  else
    CodeletOf<MgJacobiFirst>::insert({a, omega}, {coef, state, r, z}, {priority});
}

void insert_mg_jacobi(const EllipticTaskArgs& a, double omega, starpu_data_handle_t coef, starpu_data_handle_t state,
                      starpu_data_handle_t r, starpu_data_handle_t z_in, starpu_data_handle_t z_out, int priority) {
  CodeletOf<MgJacobi>::insert({a, omega}, {coef, state, r, z_in, z_out}, {priority});
}

void insert_mg_restrict_residual(const EllipticTaskArgs& a, const TileLayout& coarse, starpu_data_handle_t coef,
                                 starpu_data_handle_t state, starpu_data_handle_t r, starpu_data_handle_t z,
                                 starpu_data_handle_t r_coarse, int priority) {
  CodeletOf<MgRestrictResidual>::insert({a, coarse}, {coef, state, r, z, r_coarse}, {priority});
}

void insert_mg_prolong_add(const EllipticTaskArgs& a, const TileLayout& coarse, starpu_data_handle_t state,
                           starpu_data_handle_t z_coarse, starpu_data_handle_t z, int priority,
                           const starpu_data_handle_t* strips, const SendAhead* send) {
  if (strips)
    CodeletOf<MgProlongAddPack>::insert({a, coarse}, {state, z_coarse, z, strips[0], strips[1], strips[2], strips[3]},
                                        {priority, nullptr, -1, nullptr, send});
  else
    CodeletOf<MgProlongAdd>::insert({a, coarse}, {state, z_coarse, z}, {priority});
}

}  // namespace tdc
