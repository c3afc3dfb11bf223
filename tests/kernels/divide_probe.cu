#include "codelets/common/branch_free_divide.cuh"
#include "codelets/common/cuda_check.hpp"
#include "codelets/common/exact_fixup.cuh"
#include "divide_probe.hpp"

namespace tdc_test {
namespace {

__global__ void divide_kernel(const double* a, const double* b, std::size_t n, double* fast, double* exact,
                              unsigned char* on_fast_path) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  bool ok = true;
  fast[i] = tdc::BranchFreeDivide{&ok}(a[i], b[i]);
  exact[i] = a[i] / b[i];
  on_fast_path[i] = ok;
}

struct ExactDivide {
  __device__ double operator()(double a, double b) const { return a / b; }
};
struct DivideCell {
  const double *a, *b;
  double* q;
  int w, h;
  template <class Divide>
  __device__ void operator()(int i, int j, int k, const Divide& div) const {
    const int n = (k * h + j) * w + i;
    q[n] = div(a[n], b[n]);
  }
};
__global__ void record_kernel(DivideCell cell, tdc::Box box, int nz, tdc::FixupList f) {
  const int n = int(blockIdx.x * blockDim.x + threadIdx.x);
  const bool inside = n < cell.w * cell.h * nz;
  const int i = n % cell.w, j = n / cell.w % cell.h, k = n / (cell.w * cell.h);
  bool fast = true;
  if (inside) cell(i, j, k, tdc::BranchFreeDivide{&fast});
  tdc::record_fixup(f, box, i, j, k, !fast);
}

template <class T>
T* device_copy(const std::vector<T>& h) {
  T* p = nullptr;
  TDC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&p), h.size() * sizeof(T) + 1));
  TDC_CUDA_CHECK(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return p;
}
template <class T>
void to_host(std::vector<T>& h, T* p) {
  TDC_CUDA_CHECK(cudaMemcpy(h.data(), p, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
  TDC_CUDA_CHECK(cudaFree(p));
}

}  // namespace

DivideProbe divide_on_device(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t n = a.size();
  DivideProbe r{std::vector<double>(n), std::vector<double>(n), std::vector<unsigned char>(n)};
  const double *da = device_copy(a), *db = device_copy(b);
  double *fast = device_copy(r.fast), *exact = device_copy(r.exact);
  unsigned char* ok = device_copy(r.on_fast_path);
  divide_kernel<<<unsigned((n + 255) / 256), 256>>>(da, db, n, fast, exact, ok);
  TDC_CUDA_CHECK(cudaGetLastError());
  to_host(r.fast, fast);
  to_host(r.exact, exact);
  to_host(r.on_fast_path, ok);
  TDC_CUDA_CHECK(cudaFree(const_cast<double*>(da)));
  TDC_CUDA_CHECK(cudaFree(const_cast<double*>(db)));
  return r;
}

FixupProbe divide_with_fixup(const std::vector<double>& a, const std::vector<double>& b, int w, int h, int nz,
                             unsigned capacity, int repeats) {
  const std::size_t n = a.size();
  FixupProbe r{std::vector<double>(n), 0};
  const double *da = device_copy(a), *db = device_copy(b);
  double* q = device_copy(r.q);
  tdc::FixupList f{nullptr, nullptr, nullptr, capacity};
  TDC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&f.count), 2 * sizeof(unsigned)));
  TDC_CUDA_CHECK(cudaMemset(f.count, 0, 2 * sizeof(unsigned)));
  f.done = f.count + 1;
  TDC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&f.cells), capacity * sizeof(unsigned) + 1));
  const DivideCell cell{da, db, q, w, h};
  const tdc::Box box{0, w, 0, h};
  for (int rep = 0; rep < repeats; ++rep) {
    record_kernel<<<unsigned((n + 127) / 128), 128>>>(cell, box, nz, f);
    tdc::fixup_kernel<ExactDivide><<<tdc::kFixupBlocks, tdc::kFixupThreads>>>(f, box, nz, cell);
    TDC_CUDA_CHECK(cudaGetLastError());
  }
  TDC_CUDA_CHECK(cudaMemcpy(&r.count_after, f.count, sizeof(unsigned), cudaMemcpyDeviceToHost));
  to_host(r.q, q);
  TDC_CUDA_CHECK(cudaFree(f.count));
  TDC_CUDA_CHECK(cudaFree(f.cells));
  TDC_CUDA_CHECK(cudaFree(const_cast<double*>(da)));
  TDC_CUDA_CHECK(cudaFree(const_cast<double*>(db)));
  return r;
}

}  // namespace tdc_test
