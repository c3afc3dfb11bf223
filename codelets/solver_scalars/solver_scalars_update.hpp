// The scalar recurrences of PCG and GCR(k), shared by the CPU and CUDA forms of solver_scalars.
#pragma once
#include <math.h>

#include "../residual_max/residual_max_kernel.hpp"
#include "solver_scalars_kernel.hpp"

namespace tdc {

// Sum n of all tiles' partials, tiles combined in order.
TDC_HD double tile_total(const ScalarsArgs& a, const double* const* partials, int n) {
  DD t{partials[0][2 * n], partials[0][2 * n + 1]};
  for (int tile = 1; tile < a.tiles; ++tile) t = dd_add(t, DD{partials[tile][2 * n], partials[tile][2 * n + 1]});
  return dd_value(t);
}

// The largest of all tiles' values at `slot` (max |r| by default; exact in any order).
TDC_HD double tile_max(const ScalarsArgs& a, const double* const* partials, int slot = kMaxAbsAt) {
  double m = partials[0][slot];
  for (int tile = 1; tile < a.tiles; ++tile) m = partials[tile][slot] > m ? partials[tile][slot] : m;
  return m;
}

// The stopping test for ||r|| = res and max |r| = res_max at the current iteration: 1 converged, 2
// stop without converging (NaN, or out of iterations), 0 go on. Reads the state only.
TDC_HD int stop_test(const double* st, double res, double res_max) {
  if (!(res == res)) return 2;  // NaN first: the max-norm test would pass it (max |r| drops NaN)
  const int it = int(st[state::kIter]);
  const double res0 = it == 0 ? res : st[state::kRes0];
  if (res <= st[state::kTolRel] * res0 || res <= st[state::kTolAbs] ||
      (st[state::kTolMax] > 0.0 && res_max <= st[state::kTolMax]))
    return 1;
  return it >= int(st[state::kMaxIter]) ? 2 : 0;
}

// Records ||r|| (and max |r|) for the current iteration; true when the solver should stop.
TDC_HD bool record_residual(double* st, double res, double res_max) {
  const int it = int(st[state::kIter]);
  const int stop = stop_test(st, res, res_max);
  st[state::kHistory + it] = res;
  st[state::kRes] = res;
  st[state::kResMax] = res_max;
  if (it == 0) st[state::kRes0] = res;
  if (stop == 1) st[state::kConverged] = 1.0;
  return stop != 0;
}

// A single tile's fused-PCG preconditioner step, before its solve: whether the scalars step after it
// will stop on these partials (<r, r> first, max |r> in kMaxAbsAt), or the solve is past already.
TDC_HD bool precon_step_ends_solve(const double* st, const double* partial, int skip_from) {
  if (st[state::kDone] >= double(skip_from)) return true;
  ScalarsArgs one;
  one.tiles = 1;
  return stop_test(st, sqrt(tile_total(one, &partial, 0)), tile_max(one, &partial)) != 0;
}

TDC_HD void solver_scalars_update(const ScalarsArgs& a, double* st, const double* const* partials) {
  using namespace state;
  if (a.op == ScalarOp::Reset) {
    for (int n = 0; n < a.state_size; ++n) st[n] = 0.0;
    st[kKappa] = 1.0;
    st[kTolRel] = a.tol_rel;
    st[kTolAbs] = a.tol_abs;
    st[kTolMax] = a.tol_max;
    st[kMaxIter] = a.max_iter;
    return;
  }
  if (st[kDone] >= 2.0) return;
  switch (a.op) {
    case ScalarOp::PcgFusedPrecon: {
      if (st[kDone] >= 1.0) return;
      const double rr = tile_total(a, partials, 0), rz = tile_total(a, partials, 1);
      if (record_residual(st, sqrt(rr), tile_max(a, partials))) {
        st[kDone] = 1.0;  // the fused apply still adds the pending alpha p to u (the line form: its pending terms)
        return;
      }
      st[kBeta] = st[kIter] == 0.0 ? 0.0 : rz / st[kKappa];
      st[kKappa] = rz;
      return;
    }
    case ScalarOp::PcgLineApply:
    case ScalarOp::PcgFusedApply: {
      if (st[kDone] >= 1.0) {
        if (st[kBreakdown] != 0.0) st[kIter] -= 1.0;  // the broken-down direction was no iteration
        st[kDone] = 2.0;
        return;
      }
      const double sigma = tile_total(a, partials, 0);
      if (!(sigma > 0.0)) {  // breakdown (operator not positive definite): stop with the current u
        if (a.op == ScalarOp::PcgLineApply) {
          // ... once the line form's next direction step has added the term it still defers (line_u_update:
          // the iteration counted, so that its buffers and the deferral agree; kBreakdown drops the new term).
          st[kAlphaPrev] = st[kAlpha];
          st[kIter] += 1.0;
          st[kBreakdown] = 1.0;
          st[kDone] = 1.0;
        } else {
          st[kDone] = 2.0;
        }
        return;
      }
      st[kAlphaPrev] = st[kAlpha];
      st[kAlpha] = st[kKappa] / sigma;
      st[kIter] += 1.0;
      return;
    }
    case ScalarOp::PcgInit:
    case ScalarOp::PcgResidual: {
      if (a.op == ScalarOp::PcgResidual) st[kIter] += 1.0;
      const double rr = tile_total(a, partials, 0), rz = tile_total(a, partials, 1);
      if (record_residual(st, sqrt(rr), tile_max(a, partials))) {
        st[kDone] = 2.0;
        return;
      }
      st[kBeta] = a.op == ScalarOp::PcgInit ? 0.0 : rz / st[kKappa];
      st[kKappa] = rz;
      return;
    }
    case ScalarOp::PcgSigma: {
      const double sigma = tile_total(a, partials, 0);
      if (!(sigma > 0.0)) {
        st[kDone] = 2.0;
        return;
      }
      st[kAlpha] = st[kKappa] / sigma;
      return;
    }
    case ScalarOp::GcrResidual: {
      if (record_residual(st, sqrt(tile_total(a, partials, 0)), tile_max(a, partials))) st[kDone] = 2.0;
      return;
    }
    case ScalarOp::GcrAlphas: {
      for (int n = 0; n < a.sums; ++n) st[kGcrAlpha + n] = -tile_total(a, partials, n) / st[kGcrQQ + a.slots[n]];
      return;
    }
    case ScalarOp::Reset: return;
    case ScalarOp::Direct: {  // max norms (residual_max): the start's residual is f itself
      const double f_max = tile_max(a, partials, kResidualMaxF), r_max = tile_max(a, partials, kResidualMaxR);
      st[kRes0] = f_max;
      st[kHistory] = f_max;
      st[kIter] = 1.0;
      // A non-finite right-hand side (+inf from residual_max) would pass the relative test against
      // itself: record NaN, which stop_test turns into "not converged".
      const double res = f_max <= 1.7976931348623157e308 ? r_max : __builtin_nan("");
      record_residual(st, res, res);
      st[kDone] = 2.0;
      return;
    }
    case ScalarOp::GcrBeta: {
      const double qq = tile_total(a, partials, 0), rq = tile_total(a, partials, 1);
      if (!(qq > 0.0)) {  // the new direction vanished: nothing left to reduce
        st[kDone] = 2.0;
        return;
      }
      st[kGcrQQ + a.new_slot] = qq;
      st[kBeta] = rq / qq;
      st[kIter] += 1.0;
      return;
    }
  }
}

}  // namespace tdc
