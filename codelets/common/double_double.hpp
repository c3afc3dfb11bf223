// Compensated (double-double) arithmetic from Knuth's TwoSum: sums carry their rounding error, so
// partial sums combined in a fixed order give results independent of tiling to far below a double's
// last bit (paper 001, App. A.4). Needs IEEE arithmetic without FMA contraction or reassociation.
#pragma once
#include "tile_layout.hpp"

namespace tdc {

struct DD {
  double hi = 0.0, lo = 0.0;
};

TDC_HD DD two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
TDC_HD DD quick_two_sum(double a, double b) {
  const double s = a + b;
  return {s, b - (s - a)};
}
TDC_HD DD dd_add(DD a, DD b) {
  DD s = two_sum(a.hi, b.hi);
  return quick_two_sum(s.hi, s.lo + (a.lo + b.lo));
}
TDC_HD DD dd_add(DD a, double b) {
  DD s = two_sum(a.hi, b);
  return quick_two_sum(s.hi, s.lo + a.lo);
}
TDC_HD double dd_value(DD a) { return a.hi + a.lo; }

}  // namespace tdc
