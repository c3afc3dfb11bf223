#include "../common/codelet.hpp"
#include "pcg_fused.hpp"
#include "pcg_fused_kernel.hpp"

namespace tdc {
namespace {

// coef, u, f, r, p, q
struct PcgStart : CodeletSpec<EllipticTaskArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_W, STARPU_W> {
  static constexpr const char* name = "pcg_start";
  static void cpu(const Args& a, Buffers b) {
    pcg_start_cpu(a.L, a.h, b.vector(0), b.block(1), b.block(2), b.block(3), b.block(4), b.block(5));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    pcg_start_cuda(a.L, a.h, b.vector(0), b.block(1), b.block(2), b.block(3), b.block(4), b.block(5), s);
  };
};

// The tile's arguments, the scalars step folded in (then.tiles == 0: none), and whether z is read at
// periodic images instead of through its ghost ring.
struct ApplyArgs {
  EllipticTaskArgs e;
  ScalarsArgs then;
  int z_periodic = 0;
};
// coef, state, u, p, z, q, scratch, out
struct PcgFusedApply
    : CodeletSpec<ApplyArgs, STARPU_R, STARPU_R, STARPU_RW, STARPU_RW, STARPU_R, STARPU_RW, STARPU_SCRATCH, STARPU_W> {
  static constexpr const char* name = "pcg_fused_apply";
  static void cpu(const Args& a, Buffers b) {
    pcg_fused_apply_cpu(a.e.L, a.e.h, b.vector(0), b.vector(1), b.block(2), b.block(3), b.block(4), b.block(5),
                        b.vector(7), a.z_periodic != 0);
    fold_scalars_cpu(a.then, b.vector(1), b.vector(7));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    pcg_fused_apply_cuda(a.e.L, a.e.h, b.vector(0), b.vector(1), b.block(2), b.block(3), b.block(4), b.block(5),
                         b.vector(6), b.vector(7), s, a.z_periodic != 0);
    fold_scalars_cuda(a.then, b.vector(1), b.vector(7), s);
  };
};
// With the scalars step folded in, writing the state.
struct PcgFusedApplyScalars : PcgFusedApply {
  static constexpr const char* name = "pcg_fused_apply_scalars";
  static constexpr auto modes =
      access(STARPU_R, STARPU_RW, STARPU_RW, STARPU_RW, STARPU_R, STARPU_RW, STARPU_SCRATCH, STARPU_W);
};

}  // namespace

void insert_pcg_start(const EllipticTaskArgs& a, starpu_data_handle_t coef, starpu_data_handle_t u,
                      starpu_data_handle_t f, starpu_data_handle_t r, starpu_data_handle_t p, starpu_data_handle_t q,
                      int priority) {
  CodeletOf<PcgStart>::insert(a, {coef, u, f, r, p, q}, {priority});
}

void insert_pcg_fused_apply(const EllipticTaskArgs& e, starpu_data_handle_t coef, starpu_data_handle_t state,
                            starpu_data_handle_t u, starpu_data_handle_t p, starpu_data_handle_t z,
                            starpu_data_handle_t q, starpu_data_handle_t scratch, starpu_data_handle_t out,
                            int priority, const ScalarsArgs* then, bool z_periodic) {
  const ApplyArgs a{e, then ? *then : ScalarsArgs{}, z_periodic ? 1 : 0};
  const auto h = {coef, state, u, p, z, q, scratch, out};
  if (then)
    CodeletOf<PcgFusedApplyScalars>::insert(a, h, {priority});
  else
    CodeletOf<PcgFusedApply>::insert(a, h, {priority});
}

}  // namespace tdc
