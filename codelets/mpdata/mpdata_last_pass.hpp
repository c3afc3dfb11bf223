// The last FCT corrective pass of an MPDATA step in one CUDA kernel (the staged kernels take two or
// three launches and 14 or 21 field passes for it). A block owns a horizontal tile of output columns
// and a chunk of levels; it marches up the chunk, keeping the limiter factors (and, in the `Whole`
// form, the antidiffusive velocities) of the last few levels in shared-memory rings, so device
// memory sees psi0, psi1, psi and the velocities read and psi written once. Each intermediate is
// computed on the tile grown by its reach (and one level beyond the chunk at each end). It calls the
// same formulae as the staged kernels, so it gives the same bits. No StarPU here.
#pragma once
#include "mpdata_stages.hpp"

namespace tdc {
namespace mpdata {

// How the GPU runs the last corrective pass of an FCT step:
//   Staged:  antidiffusive, fct_beta and limited_upwind kernels (21 field passes);
//   Limiter: the antidiffusive kernel, then limiter factors + limited pass in one kernel (13);
//   Whole:   antidiffusive velocities, limiter factors and limited pass in one kernel (6).
enum class LastPass { Staged, Limiter, Whole };
// TASKDYCORE_MPDATA_LAST_PASS=staged|limiter|whole; the default is the one measured fastest.
LastPass last_pass_by_default();

#if defined(TASKDYCORE_HAVE_CUDA)
// out = the limited corrective pass on the cells of `box`. psi0: the step's start; psi1: the
// donor-cell result; psi: the pass's input (psi1 when iord = 2); with Limiter, a1..a3 are the
// pass's antidiffusive velocities (on the lower faces of box grown by 1 plus the upper faces); with
// Whole, they are the previous pass's velocities (the Courant numbers when iord = 2), from which the
// kernel forms the antidiffusive ones. g: G, or null where G = 1.
void last_fct_pass_cuda(LastPass form, const Cells& s, const Options& o, Box box, const double* psi0,
                        const double* psi1, const double* psi, const double* a1, const double* a2, const double* a3,
                        const double* g, double* out, cudaStream_t st);
#endif

}  // namespace mpdata
}  // namespace tdc
