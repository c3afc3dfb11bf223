#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include "../common/cuda_check.hpp"
#include "mpdata_fused_block.hpp"
#include "mpdata_last_pass.hpp"

namespace tdc {
namespace mpdata {
namespace {

using fused::Geometry;
using fused::Ring;

// A block's shape: TX × TY output columns, a thread per column (threadIdx.x only).
template <int TX, int TY, bool Whole>
struct LastPassPlan {
  static constexpr int threads = TX * TY;
  static constexpr int WB = TX + 2, HB = TY + 2;  // limiter factors: the tile grown by 1
  static constexpr int WV = TX + 3, HV = TY + 3;  // velocities: lower faces of that region, plus its upper faces
  // Ring depths: enough that a slot is rewritten only after a barrier has followed its last read.
  static constexpr int DB = Whole ? 3 : 4, DV = 4;
  static constexpr int doubles = 2 * DB * WB * HB + (Whole ? 3 * DV * WV * HV : 0);
};

// f(i, j) for the points of [i0, i0 + w) × [j0, j0 + h), w <= W, h <= H, spread over the block's
// threads (W and H are constants, so the index split is a multiply and a shift).
template <int W, int H, int Threads, class F>
__device__ __forceinline__ void over_region(int i0, int j0, int w, int h, F&& f) {
  for (int n = threadIdx.x; n < W * H; n += Threads) {
    const int i = n % W, j = n / W;
    if (i < w && j < h) f(i0 + i, j0 + j);
  }
}

// Registers: at most 64 in the infinite gauge (4 blocks of 256 per SM; no spills at G = 1), else 128.
// Pipeline planes: v may lie one or two levels beyond [0, nz); Geometry wraps (periodic) or clamps
// (rigid lids, where the clamped planes' values are read only into fluxes that the lids zero).
template <int TX, int TY, bool Whole, class D, bool iga>
__global__ void __launch_bounds__(TX* TY, (iga ? 4 : 2) * 256 / (TX * TY))
    last_pass_kernel(Geometry geo, Cells s, Options o, Box box, int chunk, const double* __restrict__ psi0,
                     const double* __restrict__ psi1, const double* __restrict__ psi, const double* __restrict__ a1,
                     const double* __restrict__ a2, const double* __restrict__ a3, D density,
                     double* __restrict__ out) {
  using P = LastPassPlan<TX, TY, Whole>;
  extern __shared__ double smem[];
  o.iga = iga || o.iga;
  const int I0 = box.i0 + int(blockIdx.x) * TX, J0 = box.j0 + int(blockIdx.y) * TY;
  const int ow = min(TX, box.i1 - I0), oh = min(TY, box.j1 - J0);
  const int k0 = int(blockIdx.z) * chunk, k1 = min(k0 + chunk, geo.L.nz);
  Ring<P::DB, P::WB, P::HB> up{smem, I0 - 1, J0 - 1}, down{smem + P::DB * P::WB * P::HB, I0 - 1, J0 - 1};
  double* const vs = smem + 2 * P::DB * P::WB * P::HB;
  const Ring<P::DV, P::WV, P::HV> vel[3] = {{vs, I0 - 1, J0 - 1},
                                             {vs + P::DV * P::WV * P::HV, I0 - 1, J0 - 1},
                                             {vs + 2 * P::DV * P::WV * P::HV, I0 - 1, J0 - 1}};
  const double* const a[3] = {a1, a2, a3};
  // The antidiffusive velocities around pipeline plane v: the ring's, or the arrays'.
  auto velocity = [&](int d, int v) { return Whole ? vel[d].around(v) : geo.global(a[d], v); };

  // Whole: the antidiffusive velocities on the lower faces of plane v, where the limiter factors of
  // the tile grown by 1 need them (x faces one column further east, y faces one row further north).
  auto antidiffusive_plane = [&](int v) {
    const Lids l = geo.lids(v);
    const Planes ps = geo.global(psi, v), c1 = geo.global(a1, v), c2 = geo.global(a2, v), c3 = geo.global(a3, v);
    const auto g = density.at(s, geo.phys(v));
    over_region<P::WV, P::HV, P::threads>(I0 - 1, J0 - 1, ow + 3, oh + 3, [&](int i, int j) {
      const bool x_row = j <= J0 + oh, y_col = i <= I0 + ow;
      if (x_row) vel[0].at(v, i, j) = antidiffusive_x(l, o, ps, c1, c2, c3, g, i, j);
      if (y_col) vel[1].at(v, i, j) = antidiffusive_y(l, o, ps, c1, c2, c3, g, i, j);
      if (x_row && y_col) vel[2].at(v, i, j) = antidiffusive_z(l, o, ps, c1, c2, c3, g, i, j);
    });
  };
  // The limiter factors of plane v on the tile grown by 1.
  auto limiter_plane = [&](int v) {
    const Lids l = geo.lids(v);
    const Planes p0 = geo.global(psi0, v), p1 = geo.global(psi1, v), p = geo.global(psi, v);
    const Planes v1 = velocity(0, v), v2 = velocity(1, v), v3 = velocity(2, v);
    const auto g = density.at(s, geo.phys(v));
    over_region<P::WB, P::HB, P::threads>(I0 - 1, J0 - 1, ow + 2, oh + 2, [&](int i, int j) {
      const Beta b = fct_beta_cell(l, o, p0, p1, p, v1, v2, v3, g, i, j);
      up.at(v, i, j) = b.up;
      down.at(v, i, j) = b.down;
    });
  };
  // The limited pass on level k (inside the chunk) of the tile.
  auto limited_level = [&](int k) {
    const int i = I0 + int(threadIdx.x) % TX, j = J0 + int(threadIdx.x) / TX;
    if (i < I0 + ow && j < J0 + oh)
      out[geo.L.at(i, j, k)] = limited_upwind_cell(geo.lids(k), geo.global(psi, k), velocity(0, k), velocity(1, k),
                                                   velocity(2, k), up.around(k), down.around(k),
                                                   density.at(s, k), i, j, o.iga);
  };

  // Level k's pass needs the factors of k - 1, k, k + 1; the factors of v need the velocities of
  // v and (vertical faces) v + 1.
  if (Whole) antidiffusive_plane(k0 - 1);
  for (int v = k0 - 1; v <= k1; ++v) {
    if (Whole) {
      antidiffusive_plane(v + 1);
      __syncthreads();
    }
    limiter_plane(v);
    __syncthreads();
    if (v - 1 >= k0) limited_level(v - 1);
  }
}

template <class F>
void with_gauge_constant(bool iga, F&& f) {
  if (iga) f(std::true_type{});
  else f(std::false_type{});
}

struct LaunchShape {
  int ty = 8, chunk = 32;
};
// TASKDYCORE_MPDATA_LAST_SHAPE=TYxCHUNK (e.g. 16x32) overrides the shape, for measurements.
LaunchShape launch_shape() {
  LaunchShape shape;
  if (const char* e = std::getenv("TASKDYCORE_MPDATA_LAST_SHAPE")) {
    int ty = 0, chunk = 0;
    if (std::sscanf(e, "%dx%d", &ty, &chunk) == 2 && (ty == 8 || ty == 16) && chunk > 0) shape = {ty, chunk};
  }
  return shape;
}

template <int TX, int TY, bool Whole>
void launch(const Cells& s, const Options& o, Box box, int chunk, const double* psi0, const double* psi1,
            const double* psi, const double* a1, const double* a2, const double* a3, const double* g, double* out,
            cudaStream_t st) {
  using P = LastPassPlan<TX, TY, Whole>;
  const std::size_t bytes = sizeof(double) * P::doubles;
  const dim3 grid((box.width() + TX - 1) / TX, (box.height() + TY - 1) / TY, (s.L.nz + chunk - 1) / chunk);
  const Geometry geo{s.L, s.zb == ZBoundary::Periodic};
  with_density(g, [&](auto d) {
    with_gauge_constant(o.iga, [&](auto iga) {
      auto* kernel = last_pass_kernel<TX, TY, Whole, decltype(d), decltype(iga)::value>;
      // Over 48 KB of dynamic shared memory must be allowed per kernel (cheap beside the kernel).
      TDC_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
      kernel<<<grid, P::threads, bytes, st>>>(geo, s, o, box, chunk, psi0, psi1, psi, a1, a2, a3, d, out);
    });
  });
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void last_fct_pass_cuda(LastPass form, const Cells& s, const Options& o, Box box, const double* psi0,
                        const double* psi1, const double* psi, const double* a1, const double* a2, const double* a3,
                        const double* g, double* out, cudaStream_t st) {
  if (box.empty()) return;
  static const LaunchShape shape = launch_shape();
  const bool whole = form == LastPass::Whole;
  if (shape.ty == 16) {
    if (whole) launch<32, 16, true>(s, o, box, shape.chunk, psi0, psi1, psi, a1, a2, a3, g, out, st);
    else launch<32, 16, false>(s, o, box, shape.chunk, psi0, psi1, psi, a1, a2, a3, g, out, st);
  } else {
    if (whole) launch<32, 8, true>(s, o, box, shape.chunk, psi0, psi1, psi, a1, a2, a3, g, out, st);
    else launch<32, 8, false>(s, o, box, shape.chunk, psi0, psi1, psi, a1, a2, a3, g, out, st);
  }
}

}  // namespace mpdata
}  // namespace tdc
