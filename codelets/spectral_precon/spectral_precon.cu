#include <mutex>
#include <set>
#include <stdexcept>
#include <utility>

#include "../common/cuda_check.hpp"
#include "../common/gated_graph.hpp"
#include "../dot_partial/dot_partial_kernel.hpp"
#include "../residual_dot/residual_dot_kernel.hpp"
#include "../solver_scalars/solver_scalars_update.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "spectral_chain_pass.hpp"
#include "spectral_column_solve.hpp"
#include "spectral_precon_kernel.hpp"

namespace tdc {
namespace {

constexpr int kPad = 5;  // one padding slot per 32 points of a line (padded())

// A line of n = 2^Bits points in the block's buffer: its padded points plus one slot, so that the
// same point of neighbouring lines falls in different banks. The stages run in rounds of two (radix 4:
// each thread holds 4 points in registers), the last of one when Bits is odd, with one shared
// exchange per round: few registers, so many blocks per SM keep the loads in flight. A block holds
// 2^PairBits line pairs and at most 512 threads; each takes a round's groups in turn.
template <int Bits, int PairBits>
struct LineShape {
  static constexpr int bits = Bits;
  static constexpr int n = 1 << Bits;
  static constexpr int per_line = Bits >= 2 ? n / 4 : 1;  // radix-4 groups of a line pair
  static constexpr int pairs = 1 << PairBits;
  static constexpr int threads = pairs * per_line < 512 ? pairs * per_line : 512;
  static constexpr int stride = n + (n >> kPad) + 1;
  static constexpr int points = pairs * n;
  static constexpr int shared_bytes = int(sizeof(Cplx)) * pairs * stride;
  // Blocks an SM should hold (launch bounds): 1536 threads (40 registers a thread; at 2048 threads
  // the 32 registers left spilled, and the x pass took 4 % longer on an H100), as the SM's 227 KB of
  // shared memory allow.
  static constexpr int min_blocks() {
    const int wanted = 1536 / threads > 0 ? 1536 / threads : 1;
    const int by_shared = (227 * 1024) / (shared_bytes + 1024);
    return wanted < by_shared ? wanted : (by_shared > 0 ? by_shared : 1);
  }
};
// Line pairs a block (log2): 1024 points and 256 threads a block, but at least two pairs below 2048
// points, so that along y a block's loads of one row are its pairs' 32 bytes, a whole sector.
constexpr int line_pair_bits(int bits) { return bits >= 11 ? 0 : bits == 10 ? 1 : (10 - bits) < 8 ? (10 - bits) : 8; }
// Along y and the vertical cycles, lines of 256 to 1024 points take 8 pairs (4 at 1024): a row's
// loads are then 128 (64) contiguous bytes. The y passes of the slab form (512 and 1024 points on 2 and
// 4 GPUs) took 21 and 12 % less, the one-tile 256^3 y pass 12 %, the vertical transform of 256-level
// cycles 2.5 % (tools/kernel_bench/spectral_pass_bench, docs/performance.md).
constexpr int strided_pair_bits(int bits) {
  const int wide = bits >= 8 && bits <= 9 ? 3 : bits == 10 ? 2 : 0;
  return line_pair_bits(bits) > wide ? line_pair_bits(bits) : wide;
}

// Block item e as (pair q, point t): along x the points of a line are adjacent in memory (t fastest),
// across lines (y and the cycles) neighbouring pairs are (q fastest), so global accesses coalesce.
template <int Axis, class S>
__device__ void item_of(int e, int& q, int& t) {
  if (Axis == 0) {
    q = e >> S::bits;
    t = e & (S::n - 1);
  } else {
    t = e / S::pairs;
    q = e % S::pairs;
  }
}

// Radix-2 stages [S0, S1) on the L = 2^LBits points e[j] that sit at line positions base + (j << SBits):
// the butterflies of these stages join only points a thread holds.
template <int LBits, int SBits, int S0, int S1>
__device__ void local_stages(Cplx* e, int base, int bits, const double* cw, const double* sw) {
#pragma unroll
  for (int s = S0; s < S1; ++s) {
    const int h = 1 << (s - SBits);
#pragma unroll
    for (int j = 0; j < (1 << LBits); ++j)
      if ((j & h) == 0) {
        const int pos = (base + (j << SBits)) & ((1 << s) - 1);
        const int k = pos << (bits - 1 - s);
        butterfly(e[j], e[j + h], cw[k], sw[k]);
      }
  }
}

// Round [S, S + L) of the stages on every line of the block: each group of 2^L points 2^S apart
// (the other index bits pick the group) is loaded into registers, transformed, and stored back.
template <class Shape, int S, int L>
__device__ void fft_round(Cplx* buf, const double* cw, const double* sw) {
  constexpr int Bits = Shape::bits, groups = 1 << (Bits - L);
  for (int u = threadIdx.x; u < Shape::pairs * groups; u += Shape::threads) {
    const int g = u & (groups - 1), base = (g & ((1 << S) - 1)) + ((g >> S) << (S + L));
    Cplx* line = buf + (u >> (Bits - L)) * Shape::stride;
    Cplx e[1 << L];
#pragma unroll
    for (int j = 0; j < (1 << L); ++j) e[j] = line[padded(base + (j << S), kPad)];
    local_stages<L, S, S, S + L>(e, base, Bits, cw, sw);
#pragma unroll
    for (int j = 0; j < (1 << L); ++j) line[padded(base + (j << S), kPad)] = e[j];
  }
  __syncthreads();
}
template <class Shape, int S>
__device__ void fft_rounds_from(Cplx* buf, const double* cw, const double* sw) {
  if constexpr (S + 2 <= Shape::bits) {
    fft_round<Shape, S, 2>(buf, cw, sw);
    fft_rounds_from<Shape, S + 2>(buf, cw, sw);
  } else if constexpr (S + 1 == Shape::bits) {
    fft_round<Shape, S, 1>(buf, cw, sw);
  }
}
// The whole radix-2 transform of the block's bit-reversed lines in `buf`.
template <class Shape>
__device__ void block_fft(Cplx* buf, const double* cw, const double* sw) {
  fft_rounds_from<Shape, 0>(buf, cw, sw);
}

// Point t of line l of a view: of its pieces (PassView), or of its one array (SpectralView: the
// single-array passes keep the registers they had without pieces).
template <int Axis>
__device__ __forceinline__ double* pass_point(const SpectralPlan& p, const double* tab, const PassView& v, int l,
                                              int t) {
  return line_point(p, tab, Axis, v, l, t);
}
template <int Axis>
__device__ __forceinline__ double* pass_point(const SpectralPlan& p, const double* tab, const SpectralView& v, int l,
                                              int t) {
  return v.p + line_offset(p, tab, Axis, v, l, t);
}

// One pass of Hartley transforms along `Axis` over lines of S::n points: in -> out (may be the same
// array).
template <int Axis, class S, class View>
__global__ void __launch_bounds__(S::threads, S::min_blocks())
    hartley_pass_kernel(SpectralPlan p, const double* __restrict__ tab, const double* __restrict__ st,
                        const double* __restrict__ skip, View in, View out) {
  if (solver_skips(st, p.skip_from) || (skip && *skip >= 1.0)) return;  // (the gate tests the same)
  extern __shared__ Cplx buf[];
  const int lines = int(line_count(p, Axis)), pair0 = int(blockIdx.x) * S::pairs;
  const double *cw = twiddle_cos(p, tab, Axis), *sw = twiddle_sin(p, tab, Axis);
  for (int e = threadIdx.x; e < S::points; e += S::threads) {
    int q, t;
    item_of<Axis, S>(e, q, t);
    const int l = 2 * (pair0 + q);
    if (l < lines)
      buf[q * S::stride + padded(bit_reverse(t, S::bits), kPad)] =
          Cplx{*pass_point<Axis>(p, tab, in, l, t), *pass_point<Axis>(p, tab, in, l + 1, t)};
  }
  __syncthreads();
  block_fft<S>(buf, cw, sw);
  for (int e = threadIdx.x; e < S::points; e += S::threads) {
    int q, t;
    item_of<Axis, S>(e, q, t);
    const int l = 2 * (pair0 + q);
    if (l < lines) {
      double a, b;
      hartley_pair(buf + q * S::stride, S::n, t, a, b, kPad);
      *pass_point<Axis>(p, tab, out, l, t) = a;
      *pass_point<Axis>(p, tab, out, l + 1, t) = b;
    }
  }
}

// Lets `kernel` use more than 48 KB of shared memory on the current device, once a device.
template <class Kernel>
void allow_shared(Kernel kernel, int bytes) {
  if (bytes <= 48 * 1024) return;
  static std::mutex m;
  static std::set<std::pair<const void*, int>> done;
  int device = 0;
  TDC_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(m);
  if (done.insert({reinterpret_cast<const void*>(kernel), device}).second)
    TDC_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
}

template <int Axis, class S>
void launch_shape(const SpectralPlan& p, const double* tab, const double* st, const double* skip, PassView in,
                  PassView out, cudaStream_t stream) {
  const long pairs = line_count(p, Axis) / 2;
  const unsigned blocks = unsigned((pairs + S::pairs - 1) / S::pairs);
  if constexpr (Axis < 2)  // (only x and y passes meet pieces)
    if (in.bits < S::bits || out.bits < S::bits) {
      auto kernel = hartley_pass_kernel<Axis, S, PassView>;
      allow_shared(kernel, S::shared_bytes);
      kernel<<<blocks, S::threads, S::shared_bytes, stream>>>(p, tab, st, skip, in, out);
      TDC_CUDA_CHECK(cudaGetLastError());
      return;
    }
  auto kernel = hartley_pass_kernel<Axis, S, SpectralView>;
  allow_shared(kernel, S::shared_bytes);
  kernel<<<blocks, S::threads, S::shared_bytes, stream>>>(p, tab, st, skip, in.whole(), out.whole());
  TDC_CUDA_CHECK(cudaGetLastError());
}

template <int Axis, int Bits>
void launch_bits(const SpectralPlan& p, const double* tab, const double* st, const double* skip, PassView in,
                 PassView out, cudaStream_t stream) {
  constexpr int pair_bits = Axis == 0 ? line_pair_bits(Bits) : strided_pair_bits(Bits);
  launch_shape<Axis, LineShape<Bits, pair_bits>>(p, tab, st, skip, in, out, stream);
}

template <int Axis>
void launch_pass(const SpectralPlan& p, const double* tab, const double* st, const double* skip, PassView in,
                 PassView out, cudaStream_t stream) {
  switch (line_bits(p, Axis)) {
    case 1: return launch_bits<Axis, 1>(p, tab, st, skip, in, out, stream);
    case 2: return launch_bits<Axis, 2>(p, tab, st, skip, in, out, stream);
    case 3: return launch_bits<Axis, 3>(p, tab, st, skip, in, out, stream);
    case 4: return launch_bits<Axis, 4>(p, tab, st, skip, in, out, stream);
    case 5: return launch_bits<Axis, 5>(p, tab, st, skip, in, out, stream);
    case 6: return launch_bits<Axis, 6>(p, tab, st, skip, in, out, stream);
    case 7: return launch_bits<Axis, 7>(p, tab, st, skip, in, out, stream);
    case 8: return launch_bits<Axis, 8>(p, tab, st, skip, in, out, stream);
    case 9: return launch_bits<Axis, 9>(p, tab, st, skip, in, out, stream);
    case 10: return launch_bits<Axis, 10>(p, tab, st, skip, in, out, stream);
    case 11:  // x and y lines only (vertical cycles stop at kMaxSpectralCycle = 1024)
      if constexpr (Axis != 2) return launch_bits<Axis, 11>(p, tab, st, skip, in, out, stream);
      break;
    default: throw std::invalid_argument("spectral_precon: line length out of range");
  }
}

// The vertical pass of a plan with varying level coefficients (spectral_column_solve.hpp): one thread
// per line, its 2 lc doubles of scratch in local memory; neighbouring threads take neighbouring
// columns, so that the loads and stores of one level coalesce.
constexpr int kColumnThreads = 128;
template <int Bits>
__global__ void __launch_bounds__(kColumnThreads)
    column_pass_kernel(SpectralPlan p, const double* __restrict__ tab, const double* __restrict__ st,
                       const double* __restrict__ skip, SpectralView in, SpectralView out) {
  if (solver_skips(st, p.skip_from) || (skip && *skip >= 1.0)) return;  // (the gate tests the same)
  const long l = long(blockIdx.x) * kColumnThreads + threadIdx.x;
  if (l >= line_count(p, 2)) return;
  double phi[1 << Bits], v[1 << Bits];
  column_solve<1>(p, tab, int(l), in, out, phi, v);
}

template <int Bits>
void launch_columns(const SpectralPlan& p, const double* tab, const double* st, const double* skip, SpectralView in,
                    SpectralView out, cudaStream_t stream) {
  const long lines = line_count(p, 2);
  column_pass_kernel<Bits>
      <<<unsigned((lines + kColumnThreads - 1) / kColumnThreads), kColumnThreads, 0, stream>>>(p, tab, st, skip, in,
                                                                                               out);
  TDC_CUDA_CHECK(cudaGetLastError());
}

// The direct solve of every vertical cycle.
void column_pass(const SpectralPlan& p, const double* tab, const double* st, const double* skip, SpectralView in,
                 SpectralView out, cudaStream_t stream) {
  switch (p.bz) {
    case 1: return launch_columns<1>(p, tab, st, skip, in, out, stream);
    case 2: return launch_columns<2>(p, tab, st, skip, in, out, stream);
    case 3: return launch_columns<3>(p, tab, st, skip, in, out, stream);
    case 4: return launch_columns<4>(p, tab, st, skip, in, out, stream);
    case 5: return launch_columns<5>(p, tab, st, skip, in, out, stream);
    case 6: return launch_columns<6>(p, tab, st, skip, in, out, stream);
    case 7: return launch_columns<7>(p, tab, st, skip, in, out, stream);
    case 8: return launch_columns<8>(p, tab, st, skip, in, out, stream);
    case 9: return launch_columns<9>(p, tab, st, skip, in, out, stream);
    case 10: return launch_columns<10>(p, tab, st, skip, in, out, stream);
    default: throw std::invalid_argument("spectral_precon: cycle length out of range");
  }
}

// The chain passes (spectral_chain_pass.hpp): one thread a chain, neighbouring threads on
// neighbouring lines (x), so that each point's loads and stores coalesce.
constexpr int kChainThreads = 128;
template <int Pass, class View>
__global__ void __launch_bounds__(kChainThreads)
    chain_pass_kernel(SpectralPlan p, const double* __restrict__ tab, const double* __restrict__ st,
                      const double* __restrict__ skip, View in, View out, ChainExchange x) {
  if (solver_skips(st, p.skip_from) || (skip && *skip >= 1.0)) return;  // (the gate tests the same)
  const long lines = chain_lines(p), id = long(blockIdx.x) * kChainThreads + threadIdx.x;
  if (id >= lines * p.hy) return;
  const int l = int(id % lines), c = int(id / lines);
  if constexpr (Pass == kPassYChain)
    chain_line_whole(p, tab, in, out, l, c);
  else if constexpr (Pass == kPassYChainUp)
    chain_line_up(p, tab, out, l, c, x.ends);
  else
    chain_line_down(p, tab, out, l, c, x);
}

template <int Pass, class View>
void launch_chains(const SpectralPlan& p, const double* tab, const double* st, const double* skip, View in, View out,
                   const ChainExchange* x, cudaStream_t stream) {
  const long chains = chain_lines(p) * p.hy;
  chain_pass_kernel<Pass, View><<<unsigned((chains + kChainThreads - 1) / kChainThreads), kChainThreads, 0, stream>>>(
      p, tab, st, skip, in, out, x ? *x : ChainExchange{});
  TDC_CUDA_CHECK(cudaGetLastError());
}

void chain_pass(const SpectralPlan& p, const double* tab, const double* st, const double* skip, int pass, PassView in,
                PassView out, const ChainExchange* x, cudaStream_t stream) {
  if (pass == kPassYChainUp) return launch_chains<kPassYChainUp>(p, tab, st, skip, out.whole(), out.whole(), x, stream);
  if (pass == kPassYChainDown)
    return launch_chains<kPassYChainDown>(p, tab, st, skip, out.whole(), out.whole(), x, stream);
  if (in.bits < p.by || out.bits < p.by) return launch_chains<kPassYChain>(p, tab, st, skip, in, out, x, stream);
  launch_chains<kPassYChain>(p, tab, st, skip, in.whole(), out.whole(), x, stream);
}

// One pass (a SpectralPass). Each kernel also returns at once when `skip` (if given) is >= 1, as the
// gate around a solve's passes does: the same with the gates off (TASKDYCORE_GATED_GRAPHS=off).
void pass_cuda(const SpectralPlan& p, const double* tab, const double* st, const double* skip, int pass, PassView in,
               PassView out, cudaStream_t stream, const ChainExchange* x = nullptr) {
  switch (pass) {
    case kPassX: return launch_pass<0>(p, tab, st, skip, in, out, stream);
    case kPassY: return launch_pass<1>(p, tab, st, skip, in, out, stream);
    case kPassZ: return launch_pass<2>(p, tab, st, skip, in, out, stream);
    case kPassYChain:
    case kPassYChainUp:
    case kPassYChainDown: return chain_pass(p, tab, st, skip, pass, in, out, x, stream);
    case kPassColumns: return column_pass(p, tab, st, skip, in.whole(), out.whole(), stream);
    default: throw std::invalid_argument("spectral_precon: no such pass");
  }
}

// The five passes (solve_passes_of): r -> z, then in z.
void solve_passes(const SpectralPlan& p, const double* tab, const double* st, SpectralView r, SpectralView z,
                  cudaStream_t stream, const double* skip = nullptr) {
  const SolvePasses order = solve_passes_of(p);
  for (int n = 0; n < 5; ++n) pass_cuda(p, tab, st, skip, order.pass[n], n == 0 ? r : z, z, stream);
}

// partials[kSolveSkippedAt] = 1 when r already meets the stopping test or the solver is done (the
// solve is skipped), else 0.
__global__ void mark_skip(const double* st, double* partial, int skip_from) {
  partial[kSolveSkippedAt] = precon_step_ends_solve(st, partial, skip_from) ? 1.0 : 0.0;
}

std::string plan_key(const SpectralPlan& p) {
  return gate_key(p.nx, p.ny, p.nz, p.m0, p.n0, p.k0, p.lc, p.scale, p.d, p.rest, p.columns, p.null_chains, p.hy,
                  p.chain_an, p.chain_scale, p.null_lines, p.table_doubles, p.skip_from);
}

}  // namespace

void spectral_pass_cuda(const SpectralPlan& p, const double* tab, const double* st, int pass, PassView in, PassView out,
                        cudaStream_t stream, const ChainExchange* x) {
  pass_cuda(p, tab, st, nullptr, pass, in, out, stream, x);
}

void spectral_solve_cuda(const SpectralPlan& p, const double* tab, const double* st, SpectralView r, SpectralView z,
                         cudaStream_t stream) {
  launch_gated("spectral" + plan_key(p) + gate_key(tab, r.p, r.sx, r.plane, z.p, z.sx, z.plane), st + state::kDone,
               double(p.skip_from), stream, [&](cudaStream_t capture) { solve_passes(p, tab, st, r, z, capture); });
}

void spectral_pcg_precon_cuda(const SpectralPlan& p, const TileLayout& L, const double* tab, const double* st,
                              const double* q, double* r, double* z, void* groups, double* out, cudaStream_t stream) {
  // r <- r - alpha q with <r, r> and max |r| in the same pass: when they already stop the solve, its z
  // is never read, so the solve and <r, z> are skipped (the gate reads the flag mark_skip leaves in the
  // partials; with the gates off the passes and the dot read it themselves).
  residual_update_dot_cuda(L, st, p.skip_from, state::kAlpha, q, r, groups, out, stream);
  mark_skip<<<1, 1, 0, stream>>>(st, out, p.skip_from);
  TDC_CUDA_CHECK(cudaGetLastError());
  launch_gated("spectral_pcg" + plan_key(p) + gate_key(L, tab, st, r, z, groups), out + kSolveSkippedAt, 1.0, stream,
               [&](cudaStream_t capture) {
                 solve_passes(p, tab, st, tile_view(L, r), tile_view(L, z), capture, out + kSolveSkippedAt);
                 dot_partial_cuda(L, st, p.skip_from, r, r, z, groups, out, capture, out + kSolveSkippedAt);
               });
}

}  // namespace tdc
