#include <vector>

#include "../dot_partial/dot_partial_kernel.hpp"
#include "../residual_dot/residual_dot_kernel.hpp"
#include "../solver_scalars/solver_scalars_update.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "spectral_column_solve.hpp"
#include "spectral_precon_kernel.hpp"

namespace tdc {
namespace {

constexpr int kNoPad = 30;

// The radix-2 stages on one bit-reversed line of 2^bits points, stage s joining halves of 2^s.
void line_fft(Cplx* x, int bits, const double* cw, const double* sw) {
  for (int s = 0; s < bits; ++s)
    for (int b = 0; b < (1 << bits) / 2; ++b) {
      const int hs = 1 << s, pos = b & (hs - 1), i0 = ((b - pos) << 1) + pos;
      const int k = pos << (bits - 1 - s);
      butterfly(x[i0], x[i0 + hs], cw[k], sw[k]);
    }
}

// The CUDA pass's arithmetic, one line pair at a time.
void hartley_pass(const SpectralPlan& p, const double* tab, int axis, bool scaled, SpectralView in, SpectralView out) {
  const int bits = line_bits(p, axis), n = 1 << bits;
  const int lines = line_count(p, axis);
  const double *cw = twiddle_cos(p, tab, axis), *sw = twiddle_sin(p, tab, axis);
  std::vector<Cplx> x(n);
  std::vector<double> ha(n), hb(n);
  for (int l = 0; l < lines; l += 2) {
    for (int t = 0; t < n; ++t)
      x[bit_reverse(t, bits)] =
          Cplx{in.p[line_offset(p, tab, axis, in, l, t)], in.p[line_offset(p, tab, axis, in, l + 1, t)]};
    line_fft(x.data(), bits, cw, sw);
    if (scaled) {
      int m, nn;
      line_mode(p, l, m, nn);
      for (int t = 0; t < n; ++t) {
        hartley_pair(x.data(), n, t, ha[t], hb[t], kNoPad);
        ha[t] *= spectral_inverse(p, tab, m, nn, t);
        hb[t] *= spectral_inverse(p, tab, m + 1, nn, t);
      }
      for (int t = 0; t < n; ++t) x[bit_reverse(t, bits)] = Cplx{ha[t], hb[t]};
      line_fft(x.data(), bits, cw, sw);
    }
    for (int t = 0; t < n; ++t) {
      double a, b;
      hartley_pair(x.data(), n, t, a, b, kNoPad);
      out.p[line_offset(p, tab, axis, out, l, t)] = a;
      out.p[line_offset(p, tab, axis, out, l + 1, t)] = b;
    }
  }
}

// The vertical pass of a plan with varying level coefficients: each line's cycle solved directly,
// kLanes neighbouring columns at a time (a vector of them) where the part is that wide.
constexpr int kLanes = 4;
template <int W>
void column_lines(const SpectralPlan& p, const double* tab, SpectralView in, SpectralView out) {
  std::vector<double> phi(static_cast<std::size_t>(W) << p.bz), v(phi.size());
  const long lines = line_count(p, 2);
  for (long l = 0; l < lines; l += W) column_solve<W>(p, tab, int(l), in, out, phi.data(), v.data());
}
void column_pass(const SpectralPlan& p, const double* tab, SpectralView in, SpectralView out) {
  if (p.nx % kLanes == 0)
    column_lines<kLanes>(p, tab, in, out);
  else
    column_lines<1>(p, tab, in, out);
}

}  // namespace

void spectral_pass_cpu(const SpectralPlan& p, const double* tab, int axis, SpectralView in, SpectralView out) {
  if (axis == 2 && p.columns)
    column_pass(p, tab, in, out);
  else
    hartley_pass(p, tab, axis, axis == 2, in, out);
}

void spectral_solve_cpu(const SpectralPlan& p, const double* tab, const double* st, SpectralView r, SpectralView z) {
  if (solver_skips(st, p.skip_from)) return;
  hartley_pass(p, tab, 0, false, r, z);
  hartley_pass(p, tab, 1, false, z, z);
  spectral_pass_cpu(p, tab, 2, z, z);
  hartley_pass(p, tab, 1, false, z, z);
  hartley_pass(p, tab, 0, false, z, z);
}

void spectral_pcg_precon_cpu(const SpectralPlan& p, const TileLayout& L, const double* tab, const double* st,
                             const double* q, double* r, double* z, double* out) {
  residual_update_dot_cpu(L, st, p.skip_from, state::kAlpha, q, r, out);  // does the solve stop here?
  const bool skip = precon_step_ends_solve(st, out, p.skip_from);
  if (!skip) {
    spectral_solve_cpu(p, tab, st, tile_view(L, r), tile_view(L, z));
    dot_partial_cpu(L, st, p.skip_from, r, r, z, out);
  }
  out[kSolveSkippedAt] = skip ? 1.0 : 0.0;
}

}  // namespace tdc
