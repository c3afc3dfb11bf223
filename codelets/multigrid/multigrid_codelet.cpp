#include "../common/codelet.hpp"
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

}  // namespace

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
                            starpu_data_handle_t state, starpu_data_handle_t r, starpu_data_handle_t z, int priority) {
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
                           starpu_data_handle_t z_coarse, starpu_data_handle_t z, int priority) {
  CodeletOf<MgProlongAdd>::insert({a, coarse}, {state, z_coarse, z}, {priority});
}

}  // namespace tdc
