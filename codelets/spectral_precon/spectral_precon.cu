#include "../common/cuda_check.hpp"
#include "../common/gated_graph.hpp"
#include "../dot_partial/dot_partial_kernel.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "../vector_update/vector_update_kernel.hpp"
#include "spectral_precon_kernel.hpp"

namespace tdc {
namespace {

constexpr int kThreads = 256;
constexpr int kItems = kSpectralBlockPoints / kThreads;  // points per thread in a block's lines

constexpr int kBlockBits = 11;  // log2 kSpectralBlockPoints
static_assert(kSpectralBlockPoints == 1 << kBlockBits, "block points");
constexpr int kPad = 5;  // one padding slot per 32 points of a line (padded())

// A line's stride in the block's buffer: n points with their padding, plus one slot so that the
// same point of neighbouring lines falls in different banks.
__device__ __host__ int line_stride(int bits) { return (1 << bits) + ((1 << bits) >> kPad) + 1; }

// The radix-2 stages on the block's line pairs (each kSpectralBlockPoints / n pairs of n = 2^bits points).
__device__ void block_fft(Cplx* buf, int bits, const double* cw, const double* sw) {
  for (int s = 0; s < bits; ++s) {
    for (int e = threadIdx.x; e < kSpectralBlockPoints / 2; e += kThreads) {
      const int q = e >> (bits - 1), b = e & ((1 << (bits - 1)) - 1);
      fft_butterfly(buf + q * line_stride(bits), bits, s, b, cw, sw, kPad);
    }
    __syncthreads();
  }
}

// The block's item e as (pair q, point t): along x the points of a line are adjacent in memory (t
// fastest), across lines (y and the cycles) neighbouring pairs are (q fastest), so loads coalesce.
__device__ void item_of(int axis, int e, int bits, int& q, int& t) {
  if (axis == 0) {
    q = e >> bits;
    t = e & ((1 << bits) - 1);
  } else {
    t = e >> (kBlockBits - bits);
    q = e & ((1 << (kBlockBits - bits)) - 1);
  }
}

// One pass of Hartley transforms along `axis`: in -> out (may be the same array). With `scaled`, the
// transform, the inverse symbol and the transform again (the vertical cycles, whole in the block).
template <int Axis, bool Scaled>
__global__ void __launch_bounds__(kThreads)
    hartley_pass_kernel(SpectralPlan p, const double* __restrict__ tab, const double* __restrict__ st, SpectralView in,
                        SpectralView out) {
  if (solver_skips(st, p.skip_from)) return;
  extern __shared__ Cplx buf[];
  const int bits = line_bits(p, Axis), n = 1 << bits, pairs = kSpectralBlockPoints >> bits;
  const int lines = int(line_count(p, Axis)), pair0 = int(blockIdx.x) * pairs;
  const double *cw = twiddle_cos(p, tab, Axis), *sw = twiddle_sin(p, tab, Axis);
  for (int e = threadIdx.x; e < kSpectralBlockPoints; e += kThreads) {
    int q, t;
    item_of(Axis, e, bits, q, t);
    const int l = 2 * (pair0 + q);
    if (l < lines)
      buf[q * line_stride(bits) + padded(bit_reverse(t, bits), kPad)] =
          Cplx{in.p[line_offset(p, tab, Axis, in, l, t)], in.p[line_offset(p, tab, Axis, in, l + 1, t)]};
  }
  __syncthreads();
  block_fft(buf, bits, cw, sw);
  if (Scaled) {
    double ha[kItems], hb[kItems];
#pragma unroll
    for (int s = 0; s < kItems; ++s) {
      int q, t;
      item_of(Axis, threadIdx.x + s * kThreads, bits, q, t);
      const int l = 2 * (pair0 + q);
      int m, nn;
      line_mode(p, l, m, nn);
      hartley_pair(buf + q * line_stride(bits), n, t, ha[s], hb[s], kPad);
      ha[s] *= spectral_inverse(p, tab, m, nn, t);
      hb[s] *= spectral_inverse(p, tab, m + 1, nn, t);
    }
    __syncthreads();
#pragma unroll
    for (int s = 0; s < kItems; ++s) {
      int q, t;
      item_of(Axis, threadIdx.x + s * kThreads, bits, q, t);
      buf[q * line_stride(bits) + padded(bit_reverse(t, bits), kPad)] = Cplx{ha[s], hb[s]};
    }
    __syncthreads();
    block_fft(buf, bits, cw, sw);
  }
  for (int e = threadIdx.x; e < kSpectralBlockPoints; e += kThreads) {
    int q, t;
    item_of(Axis, e, bits, q, t);
    const int l = 2 * (pair0 + q);
    if (l < lines) {
      double a, b;
      hartley_pair(buf + q * line_stride(bits), n, t, a, b, kPad);
      out.p[line_offset(p, tab, Axis, out, l, t)] = a;
      out.p[line_offset(p, tab, Axis, out, l + 1, t)] = b;
    }
  }
}

template <int Axis, bool Scaled>
void launch_pass(const SpectralPlan& p, const double* tab, const double* st, SpectralView in, SpectralView out,
                 cudaStream_t stream) {
  const int bits = line_bits(p, Axis);
  const long pairs = line_count(p, Axis) / 2, per_block = kSpectralBlockPoints >> bits;
  const std::size_t shared = sizeof(Cplx) * per_block * line_stride(bits);  // at most 48 KB (n = 2)
  hartley_pass_kernel<Axis, Scaled>
      <<<unsigned((pairs + per_block - 1) / per_block), kThreads, shared, stream>>>(p, tab, st, in, out);
  TDC_CUDA_CHECK(cudaGetLastError());
}

// The five passes: x (r -> z), y, the cycles with the symbol, y, x (all in z).
void solve_passes(const SpectralPlan& p, const double* tab, const double* st, SpectralView r, SpectralView z,
                  cudaStream_t stream) {
  launch_pass<0, false>(p, tab, st, r, z, stream);
  launch_pass<1, false>(p, tab, st, z, z, stream);
  launch_pass<2, true>(p, tab, st, z, z, stream);
  launch_pass<1, false>(p, tab, st, z, z, stream);
  launch_pass<0, false>(p, tab, st, z, z, stream);
}

std::string plan_key(const SpectralPlan& p) {
  return gate_key(p.nx, p.ny, p.nz, p.lc, p.scale, p.d, p.rest, p.table_doubles, p.skip_from);
}

}  // namespace

void spectral_solve_cuda(const SpectralPlan& p, const double* tab, const double* st, SpectralView r, SpectralView z,
                         cudaStream_t stream) {
  launch_gated("spectral" + plan_key(p) + gate_key(tab, r.p, r.sx, r.plane, z.p, z.sx, z.plane), st + state::kDone,
               double(p.skip_from), stream, [&](cudaStream_t capture) { solve_passes(p, tab, st, r, z, capture); });
}

void spectral_pcg_precon_cuda(const SpectralPlan& p, const TileLayout& L, const double* tab, const double* st,
                              const double* q, double* r, double* z, void* groups, double* out, cudaStream_t stream) {
  const VectorUpdateArgs u = residual_update_args(L, p.skip_from);
  launch_gated("spectral_pcg" + plan_key(p) + gate_key(L, tab, q, r, z), st + state::kDone, double(p.skip_from), stream,
               [&](cudaStream_t capture) {
                 vector_update_launch_cuda(u, st, q, r, capture);
                 solve_passes(p, tab, st, tile_view(L, r), tile_view(L, z), capture);
               });
  dot_partial_cuda(L, st, p.skip_from, r, r, z, groups, out, stream);
}

}  // namespace tdc
