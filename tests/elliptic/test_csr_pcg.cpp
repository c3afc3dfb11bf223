// The matrix-explicit PCG baseline (src/csr_pcg): its CSR product is the matrix-free column operator,
// its PCG converges, and the CUDA version (cuSPARSE + cuBLAS) follows the CPU residual history.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "src/bench/csr_pcg.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

using namespace tdc;

namespace {

ThinShellParams small_case() {
  ThinShellParams p;
  p.nx = p.ny = 16;
  p.nz = 8;
  return p;
}

TEST(CsrPcg, SpmvIsTheColumnOperator) {
  const ThinShell shell(small_case());
  const int nx = shell.params().nx, ny = shell.params().ny, nz = shell.params().nz;
  const TileLayout L{nx, ny, nz, 1};
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> x(std::size_t(nx) * ny * nz);
  for (double& v : x) v = uniform(gen);
  // The same field in a tile whose ghost ring holds the periodic images.
  std::vector<double> tile(L.size());
  for (int k = 0; k < nz; ++k)
    for (int j = -1; j <= ny; ++j)
      for (int i = -1; i <= nx; ++i) tile[L.at(i, j, k)] = x[(i + nx) % nx + nx * ((j + ny) % ny + ny * k)];

  const std::vector<double> y = csr_apply_for_test(shell, x);
  double err = 0.0, scale = 0.0;
  std::size_t n = 0;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i, ++n) {
        const double ref = apply_cell(L, shell.couplings(), shell.level_coefficients().data(), tile.data(), i, j, k);
        err = std::max(err, std::fabs(y[n] - ref));
        scale = std::max(scale, std::fabs(ref));
      }
  EXPECT_LE(err, 1e-12 * scale);
}

TEST(CsrPcg, CpuConverges) {
  const ThinShell shell(small_case());
  const CsrPcgResult r = csr_pcg_cpu(shell, 20);
  EXPECT_EQ(r.iterations, 20);
  EXPECT_EQ(r.nnz, 7.0 * 16 * 16 * 8 - 2 * 16 * 16);  // no k+1 entry on the top level, no k-1 on the bottom
  ASSERT_EQ(r.residual_history.size(), 21u);
  const std::vector<double>& h = r.residual_history;
  for (std::size_t i = 1; i < h.size(); ++i) EXPECT_LE(h[i], h[i - 1]) << "iteration " << i;
  EXPECT_LT(h.back() / h.front(), 1e-8);
}

#if defined(TASKDYCORE_HAVE_CUDA)
TEST(CsrPcg, CudaFollowsCpu) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
    GTEST_SKIP() << "no CUDA device on this machine: run on the GPU machine";
  const ThinShell shell(small_case());
  const CsrPcgResult cpu = csr_pcg_cpu(shell, 20), gpu = csr_pcg_cuda(shell, 20);
  EXPECT_EQ(gpu.nnz, cpu.nnz);
  ASSERT_EQ(gpu.residual_history.size(), cpu.residual_history.size());
  // Different summation orders: the histories agree while the residual is well above their rounding
  // differences (about 1e-16 of the initial residual); below, both need only be that small.
  const std::vector<double>& c = cpu.residual_history;
  const std::vector<double>& g = gpu.residual_history;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (c[i] > 1e-14 * c[0])
      EXPECT_NEAR(g[i], c[i], 1e-6 * c[i]) << "iteration " << i;
    else
      EXPECT_LT(g[i], 1e-14 * g[0]) << "iteration " << i;
  }
}
#endif

}  // namespace
