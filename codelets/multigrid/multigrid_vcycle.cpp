#include "multigrid_vcycle.hpp"

#include <stdexcept>
#include <string>

#include "../dot_partial/dot_partial_kernel.hpp"
#include "../halo_self/halo_self_plan.hpp"
#include "../vector_update/vector_update_kernel.hpp"
#if defined(TASKDYCORE_HAVE_CUDA)
#include "../common/gated_graph.hpp"
#endif
#include "../solver_scalars/solver_state.hpp"
#include "vcycle_schedule.hpp"

namespace tdc {

VcyclePlan make_vcycle_plan(const std::vector<TileLayout>& tiles, const std::vector<ColumnCouplings>& h,
                            const std::vector<std::size_t>& coef_sizes, int coarse_sweeps, double omega) {
  if (tiles.empty() || tiles.size() > std::size_t(kMaxMultigridLevels) || h.size() != tiles.size() ||
      coef_sizes.size() != tiles.size())
    throw std::invalid_argument("multigrid V-cycle: between 1 and " + std::to_string(kMaxMultigridLevels) + " levels");
  for (const ColumnCouplings& c : h)
    if (c.h < 1 || c.s < 1 || (c.h & (c.h - 1)) || (c.s & (c.s - 1)))
      throw std::invalid_argument("multigrid V-cycle: lattice strides must be powers of two");
  VcyclePlan p;
  p.levels = int(tiles.size());
  p.coarse_sweeps = coarse_sweeps;
  p.omega = omega;
  std::ptrdiff_t coef = 0, scratch = 0;
  for (int l = 0; l < p.levels; ++l) {
    VcycleLevel& v = p.level[l];
    v.L = tiles[l];
    v.h = h[l];
    v.coef = coef;
    coef += std::ptrdiff_t(coef_sizes[l]);
    const std::ptrdiff_t n = std::ptrdiff_t(v.L.size());
    v.smoothed = scratch;
    scratch += n;
    if (l > 0) {
      v.rhs = scratch;
      v.result = scratch + n;
      scratch += 2 * n;
    }
  }
  p.scratch_doubles = std::size_t(scratch);
  return p;
}

namespace {

// vcycle_schedule's operations on one tile's arrays, through a kernel backend (CPU or CUDA).
template <class Kernels>
struct TileOps {
  const VcyclePlan& p;
  const double* coef;
  const double* st;
  const double* r0;
  double* z0;
  double* scratch;
  Kernels k;

  double* field(int l, MgField f) const {
    if (l == 0 && f == MgField::Rhs) return const_cast<double*>(r0);  // read only: kernels take it as const
    if (l == 0 && f == MgField::Result) return z0;
    const VcycleLevel& v = p.level[l];
    return scratch + (f == MgField::Rhs ? v.rhs : f == MgField::Smoothed ? v.smoothed : v.result);
  }
  void jacobi_first(int l, MgField out) const {
    const VcycleLevel& v = p.level[l];
    k.jacobi(v.L, v.h, coef + v.coef, st, p.skip_from, p.omega, true, field(l, MgField::Rhs), nullptr, field(l, out));
  }
  void jacobi(int l, MgField in, MgField out) const {
    const VcycleLevel& v = p.level[l];
    k.jacobi(v.L, v.h, coef + v.coef, st, p.skip_from, p.omega, false, field(l, MgField::Rhs), field(l, in),
             field(l, out));
  }
  void halo(int l, MgField f) const { k.copies(halo_self_plan(p.level[l].L, field(l, f)), st, p.skip_from); }
  void restrict_residual(int l) const {
    const VcycleLevel& v = p.level[l];
    k.restrict_residual(v.L, p.level[l + 1].L, v.h, coef + v.coef, st, p.skip_from, field(l, MgField::Rhs),
                        field(l, MgField::Smoothed), field(l + 1, MgField::Rhs));
  }
  void prolong_add(int l) const {
    const VcycleLevel& v = p.level[l];
    k.prolong_add(v.L, p.level[l + 1].L, v.h, st, p.skip_from, field(l + 1, MgField::Result),
                  field(l, MgField::Smoothed));
  }
  // The fused passes (vcycle_schedule_fused; only the CUDA kernels have them).
  void restrict_first_sweep(int l) const {
    const VcycleLevel& v = p.level[l];
    k.restrict_first_sweep(v.L, p.level[l + 1].L, v.h, coef + v.coef, st, p.skip_from, p.omega, field(l, MgField::Rhs),
                           field(l + 1, MgField::Rhs));
  }
  void prolong_sweep(int l) const {
    const VcycleLevel& v = p.level[l];
    k.prolong_sweep(v.L, p.level[l + 1].L, v.h, coef + v.coef, st, p.skip_from, p.omega, field(l, MgField::Rhs),
                    field(l + 1, MgField::Result), field(l, MgField::Result));
  }
};

struct CpuKernels {
  void jacobi(const TileLayout& L, const ColumnCouplings& h, const double* c, const double* st, int skip, double w,
              bool first, const double* r, const double* zi, double* zo) const {
    mg_jacobi_cpu(L, h, c, st, skip, w, first, r, zi, zo);
  }
  void restrict_residual(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* c,
                         const double* st, int skip, const double* r, const double* z, double* rc) const {
    mg_restrict_residual_cpu(F, C, h, c, st, skip, r, z, rc);
  }
  void prolong_add(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* st, int skip,
                   const double* zc, double* z) const {
    mg_prolong_add_cpu(F, C, h, st, skip, zc, z);
  }
  void copies(const CopyList& list, const double*, int) const { strided_copies_cpu(list); }
};

#if defined(TASKDYCORE_HAVE_CUDA)
struct CudaKernels {
  cudaStream_t s;
  void jacobi(const TileLayout& L, const ColumnCouplings& h, const double* c, const double* st, int skip, double w,
              bool first, const double* r, const double* zi, double* zo) const {
    mg_jacobi_cuda(L, h, c, st, skip, w, first, r, zi, zo, s);
  }
  void restrict_residual(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* c,
                         const double* st, int skip, const double* r, const double* z, double* rc) const {
    mg_restrict_residual_cuda(F, C, h, c, st, skip, r, z, rc, s);
  }
  void prolong_add(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* st, int skip,
                   const double* zc, double* z) const {
    mg_prolong_add_cuda(F, C, h, st, skip, zc, z, s);
  }
  void copies(const CopyList& list, const double* st, int skip) const {
    strided_copies_cuda(list, s, st + state::kDone, double(skip));
  }
  void restrict_first_sweep(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* c,
                            const double* st, int skip, double w, const double* r, double* rc) const {
    mg_restrict_first_sweep_cuda(F, C, h, c, st, skip, w, r, rc, s);
  }
  void prolong_sweep(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* c,
                     const double* st, int skip, double w, const double* r, const double* zc, double* out) const {
    mg_prolong_sweep_cuda(F, C, h, c, st, skip, w, r, zc, out, s);
  }
};

// mg_pcg_precon's passes: the cycle's, with the finest level's last sweep also summing.
struct PcgEndsOps : TileOps<CudaKernels> {
  void* groups;
  double* out;

  void prolong_sweep(int l) const {
    if (l > 0) return TileOps::prolong_sweep(l);
    const VcycleLevel& v = p.level[0];
    mg_prolong_sweep_dot_cuda(v.L, p.level[1].L, v.h, coef + v.coef, st, p.skip_from, p.omega, r0,
                              field(1, MgField::Result), field(0, MgField::Result), groups, out, k.s);
  }
};
#endif

}  // namespace

void mg_vcycle_cpu(const VcyclePlan& plan, const double* coef, const double* st, const double* r, double* z,
                   double* scratch) {
  if (solver_skips(st, plan.skip_from)) return;  // host memory here: skip the halo copies too
  vcycle_schedule(TileOps<CpuKernels>{plan, coef, st, r, z, scratch, {}}, plan.levels, plan.coarse_sweeps);
}

void mg_pcg_precon_cpu(const VcyclePlan& plan, const double* coef, const double* st, const double* q, double* r,
                       double* z, double* scratch, double* out) {
  const TileLayout& L = plan.level[0].L;
  vector_update_cpu(residual_update_args(L, plan.skip_from), st, q, r);
  mg_vcycle_cpu(plan, coef, st, r, z, scratch);
  dot_partial_cpu(L, st, plan.skip_from, r, r, z, out);
}

#if defined(TASKDYCORE_HAVE_CUDA)
namespace {
// Everything of a plan that its launches depend on (field by field: the structs have padding).
std::string plan_key(const VcyclePlan& p) {
  std::string key = gate_key(p.levels, p.coarse_sweeps, p.omega, p.scratch_doubles);
  for (int l = 0; l < p.levels; ++l) {
    const VcycleLevel& v = p.level[l];
    key += gate_key(v.L, v.h.ae, v.h.aw, v.h.an, v.h.as, v.h.h, v.h.s, v.h.z_wrap, v.coef, v.rhs, v.smoothed, v.result);
  }
  return key;
}
}  // namespace

void mg_vcycle_cuda(const VcyclePlan& plan, const double* coef, const double* st, const double* r, double* z,
                    double* scratch, cudaStream_t stream) {
  // The state is in device memory: every kernel checks it, and the whole cycle sits behind a gate on
  // it (a skipped cycle costs one small kernel). This cycle runs on a single tile (the whole
  // domain), so the fused passes apply.
  launch_gated(plan_key(plan) + gate_key(coef, r, z, scratch), st + state::kDone, double(plan.skip_from), stream,
               [&](cudaStream_t capture) {
                 vcycle_schedule_fused(TileOps<CudaKernels>{plan, coef, st, r, z, scratch, {capture}}, plan.levels,
                                       plan.coarse_sweeps);
               });
}

void mg_pcg_precon_cuda(const VcyclePlan& plan, const double* coef, const double* st, const double* q, double* r,
                        double* z, double* scratch, void* groups, double* out, cudaStream_t stream) {
  const TileLayout& L = plan.level[0].L;
  if (plan.levels < 2) {  // no last sweep to carry the sums: the three steps as they are
    vector_update_cuda(residual_update_args(L, plan.skip_from), st, q, r, stream);
    mg_vcycle_cuda(plan, coef, st, r, z, scratch, stream);
    dot_partial_cuda(L, st, plan.skip_from, r, r, z, groups, out, stream);
    return;
  }
  launch_gated("pcg" + plan_key(plan) + gate_key(coef, q, r, z, scratch, groups, out), st + state::kDone,
               double(plan.skip_from), stream, [&](cudaStream_t capture) {
                 vector_update_launch_cuda(residual_update_args(L, plan.skip_from), st, q, r, capture);
                 const PcgEndsOps ops{{plan, coef, st, r, z, scratch, {capture}}, groups, out};
                 vcycle_schedule_fused(ops, plan.levels, plan.coarse_sweeps);
               });
}
#endif

}  // namespace tdc
