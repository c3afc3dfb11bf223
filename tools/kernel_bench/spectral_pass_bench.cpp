// The spectral preconditioner's passes on one GPU, without StarPU: each pass the one-tile solve and
// the slab form run (codelets/spectral_precon/spectral_slabs.hpp), on the shapes of Taylor-Green at
// 256^3 a GPU (one tile; the 2- and 4-GPU weak runs' tile and slab chunks), timed by CUDA events.
// Usage: spectral_pass_bench [--repeat R]
// Prints microseconds a pass (median of 7 runs of R launches) and the rate of its 16 bytes a cell.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "codelets/column_operator/column_operator.hpp"
#include "codelets/spectral_precon/spectral_precon_kernel.hpp"
#include "src/bench/median.hpp"

using namespace tdc;

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

struct Case {
  const char* name;
  int nx, ny, nz, pass, pieces_in, pieces_out;  // a SpectralPass; pieces split along its axis (1: one array)
  int parts = 1;  // split chains: the domain's ny is split into `parts` tiles, the case runs on the first
};

// laplc's couplings (strides 2) under rigid lids, constant levels: the transformed vertical pass.
SpectralPlan plan_of(int nx, int ny, int nz, std::vector<double>& tab) {
  const ColumnCouplings h{0.7, 0.7, 0.45, 0.45, 2, 2, kWrapMirror};
  std::vector<double> c(std::size_t(kLevelVectors) * nz, 0.0);
  for (int k = 0; k < nz; ++k) {
    c[kCb * nz + k] = c[kCc * nz + k] = 0.3;
    c[kC0 * nz + k] = -2.0 * (0.7 + 0.45 + 0.3);
    c[kD * nz + k] = -1.0;
  }
  finish_thomas_vectors(c.data(), nz, 1.0, 2);
  return make_spectral_plan(nx, ny, nz, h, c, tab);
}

// Equal pieces of `a` split along `axis` into `count` boxes, each dense.
PassView pieces_of(double* a, int nx, int ny, int nz, int axis, int count) {
  PassView v;
  if (count == 1) return PassView(SpectralView{a, nx, long(nx) * ny});
  const int wx = axis == 0 ? nx / count : nx, wy = axis == 1 ? ny / count : ny;
  for (int k = 0; k < count; ++k) v.p[k] = a + long(k) * wx * wy * nz;
  v.sx = wx;
  v.plane = long(wx) * wy;
  int bits = 0;
  while ((1 << bits) < (axis == 0 ? wx : wy)) ++bits;
  v.bits = bits;
  return v;
}

// Microseconds of one launch of `launch` on the default stream: the median of 7 runs of `repeat`
// (after one that warms up).
template <class F>
double timed_us(int repeat, F launch) {
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "cudaEventCreate");
  check(cudaEventCreate(&e1), "cudaEventCreate");
  std::vector<double> us;
  for (int run = 0; run < 8; ++run) {
    check(cudaEventRecord(e0, nullptr), "cudaEventRecord");
    for (int r = 0; r < repeat; ++r) launch();
    check(cudaEventRecord(e1, nullptr), "cudaEventRecord");
    check(cudaEventSynchronize(e1), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime");
    if (run > 0) us.push_back(1e3 * ms / repeat);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return median(us);
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 20;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc && std::atoi(argv[i + 1]) > 0) {
      repeat = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: spectral_pass_bench [--repeat R]\n");
      return 2;
    }
  }
  // The passes of a solve where the vertical operator is a transform (solve_passes_of), on one tile
  // and as tiles 1 x 2 and 1 x 4 run them (split chains: each tile's part of the chains), with the
  // plain y transform beside the chains and a slab's chains (the column slab flow's) for comparison.
  const Case cases[] = {
      {"1 tile 256^3: vertical", 256, 256, 256, kPassZ, 1, 1},
      {"1 tile 256^3: x", 256, 256, 256, kPassX, 1, 1},
      {"1 tile 256^3: y transform", 256, 256, 256, kPassY, 1, 1},
      {"1 tile 256^3: y chains", 256, 256, 256, kPassYChain, 1, 1},
      {"2 GPUs, tile 256x256x256: chains' way up", 256, 512, 256, kPassYChainUp, 1, 1, 2},
      {"2 GPUs, tile 256x256x256: chains' way down", 256, 512, 256, kPassYChainDown, 1, 1, 2},
      {"4 GPUs, tile 256x256x256: chains' way up", 256, 1024, 256, kPassYChainUp, 1, 1, 4},
      {"4 GPUs, tile 256x256x256: chains' way down", 256, 1024, 256, kPassYChainDown, 1, 1, 4},
      {"4 GPUs, slab chunk 64x1024x128: y chains, 4 pieces", 64, 1024, 128, kPassYChain, 4, 4},
  };
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::printf("%s, %d repeats a run\n", prop.name, repeat);
  {  // the hardware's rate beside them: a device-to-device copy of 256^3 doubles, read plus written
    const long cells = 256L * 256 * 256;
    double *a = nullptr, *b = nullptr;
    check(cudaMalloc(reinterpret_cast<void**>(&a), cells * 8), "cudaMalloc");
    check(cudaMalloc(reinterpret_cast<void**>(&b), cells * 8), "cudaMalloc");
    const double m =
        timed_us(repeat, [&] { check(cudaMemcpyAsync(b, a, cells * 8, cudaMemcpyDeviceToDevice), "copy"); });
    std::printf("  %-48s %8.1f us  %7.0f GB/s\n", "device copy 256^3", m, 16.0 * cells / m * 1e-3);
    cudaFree(a);
    cudaFree(b);
  }
  for (const Case& c : cases) {
    std::vector<double> tab;
    SpectralPlan p = plan_of(c.nx, c.ny, c.nz, tab);
    const long scratch_doubles = std::max(1L, long(p.null_lines) * p.ny);
    p.ny /= c.parts;  // (the first part)
    p.by = spectral_log2(p.ny);
    const long cells = long(c.nx) * p.ny * c.nz, exchange = chain_exchange_doubles(p);
    ChainExchange x;
    x.parts = c.parts;
    std::vector<double*> held;
    for (int g = 0; g < c.parts + 1; ++g) {
      double* e = nullptr;
      check(cudaMalloc(reinterpret_cast<void**>(&e), (g < c.parts ? exchange : scratch_doubles) * 8), "cudaMalloc");
      check(cudaMemset(e, 0, (g < c.parts ? exchange : scratch_doubles) * 8), "cudaMemset");
      held.push_back(e);
      if (g < c.parts) x.all[g] = e;
    }
    x.ends = held[0];
    x.scratch = held[c.parts];
    double *a = nullptr, *b = nullptr, *t = nullptr, *st = nullptr;
    check(cudaMalloc(reinterpret_cast<void**>(&a), cells * 8), "cudaMalloc");
    check(cudaMalloc(reinterpret_cast<void**>(&b), cells * 8), "cudaMalloc");
    check(cudaMalloc(reinterpret_cast<void**>(&t), tab.size() * 8), "cudaMalloc");
    check(cudaMalloc(reinterpret_cast<void**>(&st), 64 * 8), "cudaMalloc");
    check(cudaMemset(st, 0, 64 * 8), "cudaMemset");
    check(cudaMemset(a, 0, cells * 8), "cudaMemset");
    check(cudaMemcpy(t, tab.data(), tab.size() * 8, cudaMemcpyHostToDevice), "cudaMemcpy");
    const bool in_place = c.pass == kPassYChainUp || c.pass == kPassYChainDown;
    const PassView in = pieces_of(a, c.nx, p.ny, c.nz, pass_axis(c.pass), c.pieces_in);
    const PassView out = pieces_of(in_place ? a : b, c.nx, p.ny, c.nz, pass_axis(c.pass), c.pieces_out);
    const double m = timed_us(repeat, [&] { spectral_pass_cuda(p, t, st, c.pass, in, out, nullptr, &x); });
    std::printf("  %-48s %8.1f us  %7.0f GB/s\n", c.name, m, 16.0 * cells / m * 1e-3);
    for (double* e : held) cudaFree(e);
    cudaFree(a);
    cudaFree(b);
    cudaFree(t);
    cudaFree(st);
  }
  return 0;
}
