// n / d, correctly rounded (IEEE), at the same cost whatever n is.
//
// CUDA's double division takes a short path (reciprocal and Newton steps, about a dozen
// instructions) only when its quotient lies well inside the normal range; a zero quotient fails
// that test and calls a long general routine. MPDATA divides exact zeros wherever a field or a
// velocity vanishes (a tracer on a zero background: almost everywhere), so there the slow routine
// ran for nearly every division. A zero n over a nonzero, non-NaN d gives the signed zero
// n * sign(d) exactly, so that case is formed directly and the division is fed 1.0 instead: the
// result has the same bits as n / d for every input. On the CPU a plain division is as fast.
#pragma once
#include "tile_layout.hpp"

namespace tdc {

TDC_HD double ieee_quotient(double n, double d) {
#if defined(__CUDA_ARCH__)
  const bool signed_zero = n == 0.0 && d == d && d != 0.0;
  const double q = (signed_zero ? 1.0 : n) / d;
  return signed_zero ? n * copysign(1.0, d) : q;
#else
  return n / d;
#endif
}

}  // namespace tdc
