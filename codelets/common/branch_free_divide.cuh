// FP64 division without a branch per quotient, for kernels with many independent divisions.
//
// Why: CUDA's a / b is a reciprocal refinement followed by a test and a branch to a slow routine.
// The branch closes a scheduling region, so a thread's divisions run one after the other (each a
// chain of ~10 dependent FP64 instructions). A zero dividend also takes the slow routine, and
// MPDATA divides zeros wherever psi is flat or a Courant number vanishes. Here every quotient is
// formed on the fast path, a zero dividend included, and the test is only recorded: a kernel runs
// its formulae with this divider, and the rare cell where some quotient fell outside the fast path's
// domain is computed again with a / b (exact_fixup.cuh).
//
// Same bits as a / b: on its domain the sequence below is the one CUDA's own division runs (a
// reciprocal estimate, one cubic and one Newton step, then the quotient and its remainder
// correction), which rounds correctly; outside it the caller recomputes with a / b. Tested bit for
// bit against a / b on special values and many random quotients (CudaDivide tests).
#pragma once
#include <cuda_runtime.h>

namespace tdc {

struct BranchFreeDivide {
  bool* fast;  // cleared when a quotient fell outside the fast path's domain

  __device__ __forceinline__ double operator()(double a, double b) const {
    // CUDA's estimate: the reciprocal's high word from the special-function unit, low word 1.
    double y;
    asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(b));
    y = __hiloint2double(__double2hiint(y), 1);
    double e = fma(-b, y, 1.0);
    e = fma(e, e, e);
    y = fma(y, e, y);
    e = fma(-b, y, 1.0);
    y = fma(y, e, y);
    const double q0 = a * y;
    const double r = fma(-b, q0, a);
    const double q = fma(y, r, q0);
    // The domain of the fast path, as CUDA tests it: the dividend not tiny (|a| >= 2^-967 or so), the
    // quotient normal, b below 2^1017 (its high word read as a float is finite), nothing NaN.
    // (Scaling tiny dividends onto it as well cost 15 % more time at 256^3 than leaving the few
    // thousand cells of a diffusion front to the fix-up.)
    const float a_hi = __int_as_float(__double2hiint(a));
    const float q_hi = __fmaf_rn(0.0f, __int_as_float(__double2hiint(b)), __int_as_float(__double2hiint(q)));
    // (& and |, not && and ||: short-circuits became branches in the PTX.)
    const bool regular = (fabsf(a_hi) >= 6.5827683646048100446e-37f) & (fabsf(q_hi) > 1.469367938527859385e-39f);
    // A zero dividend: the quotient is q0 = a * y, a zero with the sign of a times b's (q would lose
    // the sign of -0 / b), unless b is zero, subnormal (flushed by the estimate) or NaN, where q0 is
    // NaN. So a and q0 both +-0, tested on their integer words (the FP64 pipe is the busy one).
    const bool zero = (((unsigned(__double2hiint(a)) | unsigned(__double2hiint(q0))) << 1) |
                       unsigned(__double2loint(a)) | unsigned(__double2loint(q0))) == 0u;
    *fast = *fast & (regular | zero);
    return zero ? q0 : q;
  }
};

}  // namespace tdc
