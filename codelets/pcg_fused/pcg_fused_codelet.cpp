#include "../common/codelet.hpp"
#include "pcg_fused.hpp"
#include "pcg_fused_kernel.hpp"

namespace tdc {
namespace {

struct PcgStart : CodeletSpec {
  using Args = EllipticTaskArgs;
  static constexpr const char* name = "pcg_start";
  static constexpr auto modes = access(R, R, R, W, W, W);  // coef, u, f, r, p, q
  static void cpu(const Args& a, Buffers b) {
    pcg_start_cpu(a.L, a.h, b.vector(0), b.block(1), b.block(2), b.block(3), b.block(4), b.block(5));
  }
  template <class Stream>
  static void cuda(const Args& a, Buffers b, Stream s) {
    pcg_start_cuda(a.L, a.h, b.vector(0), b.block(1), b.block(2), b.block(3), b.block(4), b.block(5), s);
  }
};

// The tile's arguments, the scalars step folded in (then.tiles == 0: none), and whether z is read at
// periodic images instead of through its ghost ring.
struct PcgFusedApply : CodeletSpec {
  struct Args {
    EllipticTaskArgs e;
    ScalarsArgs then;
    int z_periodic = 0;
  };
  static constexpr const char* name = "pcg_fused_apply";
  static constexpr auto modes = access(R, R, RW, RW, R, RW, S, W);  // coef, state, u, p, z, q, scratch, out
  static void cpu(const Args& a, Buffers b) {
    pcg_fused_apply_cpu(a.e.L, a.e.h, b.vector(0), b.vector(1), b.block(2), b.block(3), b.block(4), b.block(5),
                        b.vector(7), a.z_periodic != 0);
    fold_scalars_cpu(a.then, b.vector(1), b.vector(7));
  }
  template <class Stream>
  static void cuda(const Args& a, Buffers b, Stream s) {
    pcg_fused_apply_cuda(a.e.L, a.e.h, b.vector(0), b.vector(1), b.block(2), b.block(3), b.block(4), b.block(5),
                         b.vector(6), b.vector(7), s, a.z_periodic != 0);
    fold_scalars_cuda(a.then, b.vector(1), b.vector(7), s);
  }
};
// With the scalars step folded in, writing the state.
struct PcgFusedApplyScalars : PcgFusedApply {
  static constexpr const char* name = "pcg_fused_apply_scalars";
  static constexpr auto modes = access(R, RW, RW, RW, R, RW, S, W);
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
  const PcgFusedApply::Args a{e, then ? *then : ScalarsArgs{}, z_periodic ? 1 : 0};
  const auto h = {coef, state, u, p, z, q, scratch, out};
  if (then)
    CodeletOf<PcgFusedApplyScalars>::insert(a, h, {priority});
  else
    CodeletOf<PcgFusedApply>::insert(a, h, {priority});
}

}  // namespace tdc
