// The whole iord = 2 MPDATA step (donor cell, antidiffusive velocities, optional FCT limiter,
// corrective pass) in one CUDA kernel: 2.5D blocking after Rojek et al. (paper 000, §4). A block
// owns a horizontal tile of output columns and marches up the column; the intermediates (psi1,
// antidiffusive velocities, limiter factors) live in shared-memory rings of a few planes, so device
// memory sees psi0, c1..c3 and G read and psi written, about 48 B per cell. It calls the same
// formulae as the staged kernels and so gives bitwise the same field.
#pragma once
#include "mpdata_stages.hpp"

namespace tdc {
namespace mpdata {

// Whether the fused kernel handles these options (iord = 2; otherwise use the stages).
inline bool fused_supported(const Options& o) { return o.iord == 2; }
// Which variant runs (Options::fused) by default: the staged kernels on both devices, which on the
// CPU run iord 2 as the level march (mpdata_march.hpp: vectorised loops, 4-5x the fused block's
// per core, whose loops do not vectorise); on the GPU the fused kernel is latency-bound (one block
// marches all levels with four barriers per level) and was measured slower (docs/performance.md).
// Results are bitwise the same either way.

// The same block algorithm on the CPU: tiles of 32 × 8 columns marching up, rings in cache.
void step2_fused_cpu(const Cells& s, const Options& o, Box out_box, const double* psi0, const double* c1,
                     const double* c2, const double* c3, const double* g, double* out);

#if defined(TASKDYCORE_HAVE_CUDA)
// Block shape (output columns per block); the default is the one the benchmark picked on an H100.
struct FusedShape {
  int tx = 32, ty = 8;
};
// 32 x 4 is the other compiled block shape (for comparisons).
void step2_fused_cuda(const Cells& s, const Options& o, Box out_box, const double* psi0, const double* c1,
                      const double* c2, const double* c3, const double* g, double* out, cudaStream_t st,
                      FusedShape shape = {});
#endif

}  // namespace mpdata
}  // namespace tdc
