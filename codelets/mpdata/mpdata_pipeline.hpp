// One MPDATA time step over a region of a tile, composed from the stage kernels: the donor-cell pass,
// then (iord - 1) corrective passes, each computing antidiffusive velocities, optionally limiting
// them (FCT), and applying them upwind. Every pass is computed redundantly on a region grown by the
// stencil reach of the passes after it, so one halo exchange of width halo_needed() per step
// suffices. The same code drives the CPU and the CUDA kernels (Backend = CpuStages or CudaStages).
#pragma once
#include "mpdata_fused.hpp"
#include "mpdata_march.hpp"

namespace tdc {
namespace mpdata {

// Ghost width one step needs: each corrective pass reaches one cell further (two with FCT).
inline int halo_needed(const Options& o) { return 1 + (o.iord - 1) * (o.fct ? 2 : 1); }

// Scratch arrays (each one tile in size) that a step uses.
struct ScratchPlan {
  int psi1 = 0, psi_ab = 0, vel_sets = 0, beta = 0;
  int arrays() const { return psi1 + psi_ab + 3 * vel_sets + beta; }
};
inline ScratchPlan scratch_plan(const Options& o) {
  ScratchPlan p;
  const int passes = o.iord - 1;
  if (passes == 0) return p;
  p.psi1 = 1;
  p.psi_ab = passes >= 2 ? 2 : 0;
  p.vel_sets = passes >= 2 ? 2 : 1;
  p.beta = o.fct ? 2 : 0;
  return p;
}

struct Scratch {
  double* psi1 = nullptr;
  double* psi_ab[2] = {nullptr, nullptr};
  double* vel[2][3] = {{nullptr, nullptr, nullptr}, {nullptr, nullptr, nullptr}};
  double* up = nullptr;
  double* down = nullptr;
};
// Carves the scratch arrays out of one buffer of scratch_plan(o).arrays() * L.size() doubles.
inline Scratch carve_scratch(const Options& o, const TileLayout& L, double* buffer) {
  const ScratchPlan p = scratch_plan(o);
  Scratch s;
  double* next = buffer;
  auto take = [&]() {
    double* a = next;
    next += L.size();
    return a;
  };
  if (p.psi1) s.psi1 = take();
  for (int q = 0; q < p.psi_ab; ++q) s.psi_ab[q] = take();
  for (int v = 0; v < p.vel_sets; ++v)
    for (int d = 0; d < 3; ++d) s.vel[v][d] = take();
  if (p.beta) {
    s.up = take();
    s.down = take();
  }
  return s;
}

struct StepInputs;

struct CpuStages {
  bool use_fused = false;  // the fused block where it applies (iord = 2)
  bool march = true;       // else the level march where it applies (iord = 2), else the staged loops
  bool fused_step(const Cells& s, const Options& o, Box b, const StepInputs& in, double* out) const;
  void upwind(const Cells& s, Box b, const double* psi, const double* c1, const double* c2, const double* c3,
              const double* g, double* out, bool linear) const {
    upwind_cpu(s, b, psi, c1, c2, c3, g, out, linear);
  }
  void antidiffusive(const Cells& s, const Options& o, Box b, const double* psi, const double* c1, const double* c2,
                     const double* c3, const double* g, double* v1, double* v2, double* v3) const {
    antidiffusive_cpu(s, o, b, psi, c1, c2, c3, g, v1, v2, v3);
  }
  void fct_beta(const Cells& s, const Options& o, Box b, const double* psi0, const double* psi1, const double* psi,
                const double* v1, const double* v2, const double* v3, const double* g, double* up, double* down) const {
    fct_beta_cpu(s, o, b, psi0, psi1, psi, v1, v2, v3, g, up, down);
  }
  void fct_limit(const Cells& s, Box b, const double* up, const double* down, double* v1, double* v2,
                 double* v3) const {
    fct_limit_cpu(s, b, up, down, v1, v2, v3);
  }
  void limited_upwind(const Cells& s, Box b, const double* psi, const double* v1, const double* v2, const double* v3,
                      const double* up, const double* down, const double* g, double* out, bool linear) const {
    limited_upwind_cpu(s, b, psi, v1, v2, v3, up, down, g, out, linear);
  }
};

#if defined(TASKDYCORE_HAVE_CUDA)
struct CudaStages {
  cudaStream_t stream;
  bool use_fused = false;  // the fused block where it applies (iord = 2), of this shape
  FusedShape shape{};
  bool fused_step(const Cells& s, const Options& o, Box b, const StepInputs& in, double* out) const;
  void upwind(const Cells& s, Box b, const double* psi, const double* c1, const double* c2, const double* c3,
              const double* g, double* out, bool linear) const {
    upwind_cuda(s, b, psi, c1, c2, c3, g, out, linear, stream);
  }
  void antidiffusive(const Cells& s, const Options& o, Box b, const double* psi, const double* c1, const double* c2,
                     const double* c3, const double* g, double* v1, double* v2, double* v3) const {
    antidiffusive_cuda(s, o, b, psi, c1, c2, c3, g, v1, v2, v3, stream);
  }
  void fct_beta(const Cells& s, const Options& o, Box b, const double* psi0, const double* psi1, const double* psi,
                const double* v1, const double* v2, const double* v3, const double* g, double* up, double* down) const {
    fct_beta_cuda(s, o, b, psi0, psi1, psi, v1, v2, v3, g, up, down, stream);
  }
  void fct_limit(const Cells& s, Box b, const double* up, const double* down, double* v1, double* v2,
                 double* v3) const {
    fct_limit_cuda(s, b, up, down, v1, v2, v3, stream);
  }
  void limited_upwind(const Cells& s, Box b, const double* psi, const double* v1, const double* v2, const double* v3,
                      const double* up, const double* down, const double* g, double* out, bool linear) const {
    limited_upwind_cuda(s, b, psi, v1, v2, v3, up, down, g, out, linear, stream);
  }
};
#endif

// The input arrays of a step: psi0, the Courant numbers and G, all with a valid ghost ring of
// halo_needed() columns (the Courant numbers and G are read at most halo_needed() - 1 out).
struct StepInputs {
  const double* psi0;
  const double* c1;
  const double* c2;
  const double* c3;
  const double* g;
};

inline bool CpuStages::fused_step(const Cells& s, const Options& o, Box b, const StepInputs& in, double* out) const {
  if (use_fused && fused_supported(o)) {
    step2_fused_cpu(s, o, b, in.psi0, in.c1, in.c2, in.c3, in.g, out);
    return true;
  }
  if (march && march_supported(o)) {
    step2_march_cpu(s, o, b, in.psi0, in.c1, in.c2, in.c3, o.unit_density ? nullptr : in.g, out);
    return true;
  }
  return false;
}

#if defined(TASKDYCORE_HAVE_CUDA)
inline bool CudaStages::fused_step(const Cells& s, const Options& o, Box b, const StepInputs& in, double* out) const {
  if (!use_fused || !fused_supported(o)) return false;
  step2_fused_cuda(s, o, b, in.psi0, in.c1, in.c2, in.c3, in.g, out, stream, shape);
  return true;
}
#endif

// The stages that the options choose (Options::fused, fused_block_y).
inline CpuStages cpu_stages(const Options& o) { return CpuStages{o.fused}; }
#if defined(TASKDYCORE_HAVE_CUDA)
inline CudaStages cuda_stages(const Options& o, cudaStream_t stream) {
  return CudaStages{stream, o.fused, FusedShape{32, o.fused_block_y}};
}
#endif

// Writes psi at the end of the step on the cells of `region` into `out` (tile layout).
template <class Stages>
void advance_region(const Stages& k, const Cells& s, const Options& o, Box region, const StepInputs& in,
                    const Scratch& t, double* out) {
  if (region.empty()) return;
  if (k.fused_step(s, o, region, in, out)) return;    // (reads G even where it is 1: the same bits)
  const double* g = o.unit_density ? nullptr : in.g;  // null: the G = 1 kernels
  const int passes = o.iord - 1;
  if (passes == 0) {
    k.upwind(s, region, in.psi0, in.c1, in.c2, in.c3, g, out, false);
    return;
  }
  const int reach = o.fct ? 2 : 1;  // how far one corrective pass reads around its output
  k.upwind(s, region.grown(reach * passes), in.psi0, in.c1, in.c2, in.c3, g, t.psi1, false);
  const double* cur = t.psi1;
  const double* vel[3] = {in.c1, in.c2, in.c3};
  for (int p = 1; p <= passes; ++p) {
    const Box rp = region.grown(reach * (passes - p));
    double* const* v = t.vel[(p - 1) % 2];
    k.antidiffusive(s, o, rp.grown(o.fct ? 1 : 0).with_upper_faces(), cur, vel[0], vel[1], vel[2], g, v[0], v[1], v[2]);
    double* next = (p == passes) ? out : t.psi_ab[(p - 1) % 2];
    if (o.fct) {
      k.fct_beta(s, o, rp.grown(1), in.psi0, t.psi1, cur, v[0], v[1], v[2], g, t.up, t.down);
      if (p == passes) {  // the last pass limits on the fly: the limited velocities are not needed again
        k.limited_upwind(s, rp, cur, v[0], v[1], v[2], t.up, t.down, g, next, o.iga);
      } else {
        k.fct_limit(s, rp.with_upper_faces(), t.up, t.down, v[0], v[1], v[2]);
        k.upwind(s, rp, cur, v[0], v[1], v[2], g, next, o.iga);
      }
    } else {
      k.upwind(s, rp, cur, v[0], v[1], v[2], g, next, o.iga);
    }
    cur = next;
    for (int d = 0; d < 3; ++d) vel[d] = v[d];
  }
}

// The regions a tile's step is split into: the border bands (cells the neighbours need, computed
// first so their halo strips can travel while the body is computed) and the body.
inline Box body_region(const TileLayout& L) { return {L.halo, L.nx - L.halo, L.halo, L.ny - L.halo}; }
inline int border_regions(const TileLayout& L, Box out[4]) {
  const int h = L.halo;
  int n = 0;
  out[n++] = {0, L.nx, 0, h};            // south band (with corners)
  out[n++] = {0, L.nx, L.ny - h, L.ny};  // north band
  if (L.ny > 2 * h) {
    out[n++] = {0, h, h, L.ny - h};            // west band
    out[n++] = {L.nx - h, L.nx, h, L.ny - h};  // east band
  }
  return n;
}

}  // namespace mpdata
}  // namespace tdc
