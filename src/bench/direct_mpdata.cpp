#include "direct_mpdata.hpp"

#include <algorithm>
#include <stdexcept>

#include "../../codelets/halo_unpack/halo_unpack_plan.hpp"
#include "../../codelets/mpdata/mpdata_step_kernel.hpp"
#include "../advection/advection_case.hpp"
#include "../run/checksum.hpp"
#include "../../graph/runtime/grid.hpp"
#include "median.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>

#include "../../codelets/common/cuda_check.hpp"
#endif

namespace tdc {

#if !defined(TASKDYCORE_HAVE_CUDA)
bool cuda_device_available() { return false; }
std::string cuda_device_name() { return ""; }
DirectTiming direct_mpdata_cuda(const AdvectionConfig&, int, int, int) {
  throw std::runtime_error("built without CUDA");
}
double device_copy_bandwidth(std::size_t, int) { throw std::runtime_error("built without CUDA"); }
#else

bool cuda_device_available() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

std::string cuda_device_name() {
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) return "";
  return p.name;
}

namespace {

double* device_alloc(std::size_t n) {
  void* p = nullptr;
  TDC_CUDA_CHECK(cudaMalloc(&p, n * sizeof(double)));
  return static_cast<double*>(p);
}

struct DeviceTile {
  double* psi[2];
  double *c1, *c2, *c3, *g;
  double* strips[4];
};

}  // namespace

double device_copy_bandwidth(std::size_t bytes, int repeats) {
  double* a = device_alloc(bytes / sizeof(double));
  double* b = device_alloc(bytes / sizeof(double));
  TDC_CUDA_CHECK(cudaMemset(a, 1, bytes));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<double> gbs;
  for (int r = 0; r <= repeats; ++r) {
    cudaEventRecord(e0);
    TDC_CUDA_CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice));
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    if (r > 0) gbs.push_back(2.0 * bytes / (ms * 1e-3) / 1e9);  // first copy is the warm-up
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaFree(a);
  cudaFree(b);
  return median(gbs);
}

DirectTiming direct_mpdata_cuda(const AdvectionConfig& cfg, int warmup, int repeats, int steps) {
  const Decomposition d(cfg.grid, cfg.tiles_x, cfg.tiles_y, cfg.halo, 1);
  const TileLayout& L = d.layout();
  const AdvectionCase ac(cfg);
  if (ac.time_dependent()) throw std::runtime_error("the direct runner handles steady flows only");
  const MpdataTaskArgs args{L, cfg.mpdata};
  const bool overlap = split_border_body(L, cfg.overlap);
  std::vector<DeviceTile> tiles(d.tiles());
  std::vector<double> host(L.size()), cx(L.size()), cy(L.size()), cz(L.size()), g(L.size());
  for (int t = 0; t < d.tiles(); ++t) {
    ac.fill_tile(d, t, host.data(), cx.data(), cy.data(), cz.data(), g.data());
    DeviceTile& D = tiles[t];
    auto upload = [&](const std::vector<double>& h) {
      double* p = device_alloc(L.size());
      TDC_CUDA_CHECK(cudaMemcpy(p, h.data(), L.size() * sizeof(double), cudaMemcpyHostToDevice));
      return p;
    };
    D.psi[0] = upload(host);
    D.psi[1] = upload(host);
    D.c1 = upload(cx);
    D.c2 = upload(cy);
    D.c3 = upload(cz);
    D.g = upload(g);
    for (int s = 0; s < 4; ++s) D.strips[s] = device_alloc(strip_size(L, s));
  }
  double* border_scratch = device_alloc(mpdata_border_scratch_doubles(args));
  double* body_scratch = device_alloc(mpdata_body_scratch_doubles(args));
  cudaStream_t stream;
  TDC_CUDA_CHECK(cudaStreamCreate(&stream));
  const mpdata::CudaStages stages = mpdata::cuda_stages(cfg.mpdata, stream);
  const CudaCopy copy{stream};

  long step = 0;
  auto one_step = [&]() {
    for (int t = 0; t < d.tiles(); ++t) {
      DeviceTile& D = tiles[t];
      const mpdata::StepInputs in{D.psi[step % 2], D.c1, D.c2, D.c3, D.g};
      if (overlap) {
        mpdata_border_work(args, in, border_scratch, D.strips, stages, copy);
        mpdata_body_work(args, in, body_scratch, D.psi[(step + 1) % 2], stages);
      } else {
        mpdata_tile_work(args, in, body_scratch, D.psi[(step + 1) % 2], D.strips, stages, copy);
      }
    }
    for (int t = 0; t < d.tiles(); ++t) {
      const double* own[4] = {tiles[t].strips[0], tiles[t].strips[1], tiles[t].strips[2], tiles[t].strips[3]};
      const double* nb[kNeighbourSlots];
      for (int s = 0; s < kNeighbourSlots; ++s) {
        int dx, dy;
        neighbour_offset(s, dx, dy);
        nb[s] = tiles[d.neighbour(t, dx, dy)].strips[neighbour_strip_side(s)];
      }
      strided_copies_cuda(halo_unpack_plan(L, tiles[t].psi[(step + 1) % 2], own, nb), stream);
    }
    ++step;
  };

  for (int n = 0; n < warmup; ++n) one_step();
  TDC_CUDA_CHECK(cudaStreamSynchronize(stream));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  DirectTiming result;
  for (int r = 0; r < repeats; ++r) {
    cudaEventRecord(e0, stream);
    for (int n = 0; n < steps; ++n) one_step();
    cudaEventRecord(e1, stream);
    TDC_CUDA_CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    result.ms_per_step.push_back(ms / steps);
  }
  TDC_CUDA_CHECK(cudaGetLastError());
  // The field, in the global order of gather_field, for the bitwise comparison with the graph.
  const int gnx = cfg.grid.nx, gny = cfg.grid.ny;
  std::vector<double> global(std::size_t(gnx) * gny * L.nz);
  for (int t = 0; t < d.tiles(); ++t) {
    TDC_CUDA_CHECK(cudaMemcpy(host.data(), tiles[t].psi[step % 2], L.size() * sizeof(double), cudaMemcpyDeviceToHost));
    for (int k = 0; k < L.nz; ++k)
      for (int j = 0; j < L.ny; ++j)
        for (int i = 0; i < L.nx; ++i)
          global[(std::size_t(k) * gny + d.origin_y(t) + j) * gnx + d.origin_x(t) + i] = host[L.at(i, j, k)];
  }
  result.checksum = checksum_hex(global);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaStreamDestroy(stream);
  for (auto& D : tiles) {
    for (double* p : {D.psi[0], D.psi[1], D.c1, D.c2, D.c3, D.g, D.strips[0], D.strips[1], D.strips[2], D.strips[3]})
      cudaFree(p);
  }
  cudaFree(border_scratch);
  cudaFree(body_scratch);
  return result;
}
#endif

}  // namespace tdc
