// GPU half of the matrix-explicit PCG baseline (src/csr_pcg.hpp), written as a library user would
// (paper 002 §6.2): cusparseSpMV on the CSR matrix, cusparseDgtsvInterleavedBatch on the stored
// diagonals for the preconditioner, cuBLAS for the vector operations. The dot products return to the
// host (cuBLAS host pointer mode), so each iteration synchronises three times, as such a code does.
#if defined(TASKDYCORE_HAVE_CUDA)
#include <cublas_v2.h>
#include <cusparse.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "../../codelets/common/cuda_check.hpp"
#include "csr_pcg.hpp"

namespace tdc {
namespace {

void check(cusparseStatus_t s, const char* call) {
  if (s != CUSPARSE_STATUS_SUCCESS) throw std::runtime_error(std::string(call) + ": " + cusparseGetErrorString(s));
}
void check(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(call) + ": " + cublasGetStatusString(s));
}
#define TDC_LIB_CHECK(call) check((call), #call)

// Takes ownership of a library handle or descriptor, with the function that destroys it.
template <class H, class Destroy>
auto owned(H h, Destroy destroy) {
  return std::unique_ptr<std::remove_pointer_t<H>, Destroy>(h, destroy);
}

template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t n) { TDC_CUDA_CHECK(cudaMalloc(&p_, n * sizeof(T))); }
  explicit DeviceArray(const std::vector<T>& h) : DeviceArray(h.size()) {
    TDC_CUDA_CHECK(cudaMemcpy(p_, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { cudaFree(p_); }
  T* get() const { return p_; }

 private:
  T* p_ = nullptr;
};

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

CsrPcgResult csr_pcg_cuda(const ThinShell& shell, int iterations) {
  // The handles start the CUDA context and the libraries: done before the setup clock starts.
  cusparseHandle_t sp_handle;
  TDC_LIB_CHECK(cusparseCreate(&sp_handle));
  const auto sp = owned(sp_handle, cusparseDestroy);
  cublasHandle_t bl_handle;
  TDC_LIB_CHECK(cublasCreate(&bl_handle));
  const auto bl = owned(bl_handle, cublasDestroy);

  CsrPcgResult res;
  const auto t0 = std::chrono::steady_clock::now();
  const CsrSystem s = assemble_csr(shell);
  const int n = s.rows();
  const std::size_t bytes = std::size_t(n) * sizeof(double);
  res.nnz = double(s.val.size());
  const DeviceArray<int> row_ptr(s.row_ptr), col(s.col);
  const DeviceArray<double> val(s.val), dl(s.dl), d(s.d), du(s.du);
  // gtsvInterleavedBatch with algo 0 overwrites du with its elimination factors (seen with the cuSPARSE
  // of CUDA 13.0, which keeps dl and d; the documentation does not say): each solve gets a fresh copy
  // of du. Should a later cuSPARSE overwrite more, test_csr_pcg's CUDA history would show it.
  const DeviceArray<double> du_w(n);
  const DeviceArray<double> u(n), r(n), z(n), p(n), q(n);
  TDC_CUDA_CHECK(cudaMemset(u.get(), 0, bytes));

  cusparseSpMatDescr_t a_descr;
  TDC_LIB_CHECK(cusparseCreateCsr(&a_descr, n, n, int64_t(s.val.size()), row_ptr.get(), col.get(), val.get(),
                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  const auto A = owned(a_descr, cusparseDestroySpMat);
  cusparseDnVecDescr_t p_descr, q_descr;
  TDC_LIB_CHECK(cusparseCreateDnVec(&p_descr, n, p.get(), CUDA_R_64F));
  const auto vp = owned(p_descr, cusparseDestroyDnVec);
  TDC_LIB_CHECK(cusparseCreateDnVec(&q_descr, n, q.get(), CUDA_R_64F));
  const auto vq = owned(q_descr, cusparseDestroyDnVec);
  const double one = 1.0, zero = 0.0;
  // ALG2: documented to give bitwise the same result at every run (ALG1 was 2% faster here, no such promise).
  const cusparseSpMVAlg_t alg = CUSPARSE_SPMV_CSR_ALG2;
  std::size_t spmv_bytes = 0, gtsv_bytes = 0;
  TDC_LIB_CHECK(cusparseSpMV_bufferSize(sp.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A.get(), vp.get(), &zero,
                                        vq.get(), CUDA_R_64F, alg, &spmv_bytes));
  const DeviceArray<char> spmv_buffer(spmv_bytes);
  TDC_LIB_CHECK(cusparseSpMV_preprocess(sp.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A.get(), vp.get(), &zero,
                                        vq.get(), CUDA_R_64F, alg, spmv_buffer.get()));
  // algo 0: Thomas, no pivoting (the column blocks are strictly diagonally dominant).
  TDC_LIB_CHECK(cusparseDgtsvInterleavedBatch_bufferSizeExt(sp.get(), 0, s.nz, dl.get(), d.get(), du.get(), z.get(),
                                                            s.columns, &gtsv_bytes));
  const DeviceArray<char> gtsv_buffer(gtsv_bytes);
  TDC_CUDA_CHECK(cudaDeviceSynchronize());
  res.setup_ms = ms_since(t0);
  TDC_CUDA_CHECK(cudaMemcpy(r.get(), global_rhs(shell).data(), bytes, cudaMemcpyHostToDevice));

  auto dot = [&](const double* a, const double* b) {
    double v = 0.0;
    TDC_LIB_CHECK(cublasDdot(bl.get(), n, a, 1, b, 1, &v));
    return v;
  };
  auto axpy = [&](double a, const double* x, double* y) { TDC_LIB_CHECK(cublasDaxpy(bl.get(), n, &a, x, 1, y, 1)); };
  auto precondition = [&] {  // z = M^-1 r (gtsv solves in place)
    TDC_CUDA_CHECK(cudaMemcpyAsync(du_w.get(), du.get(), bytes, cudaMemcpyDeviceToDevice));
    TDC_CUDA_CHECK(cudaMemcpyAsync(z.get(), r.get(), bytes, cudaMemcpyDeviceToDevice));
    TDC_LIB_CHECK(cusparseDgtsvInterleavedBatch(sp.get(), 0, s.nz, dl.get(), d.get(), du_w.get(), z.get(), s.columns,
                                                gtsv_buffer.get()));
  };

  precondition();
  TDC_CUDA_CHECK(cudaMemcpyAsync(p.get(), z.get(), bytes, cudaMemcpyDeviceToDevice));
  double rz = dot(r.get(), z.get());
  res.residual_history.push_back(std::sqrt(dot(r.get(), r.get())));
  const auto t1 = std::chrono::steady_clock::now();
  for (int it = 0; it < iterations; ++it) {
    TDC_LIB_CHECK(cusparseSpMV(sp.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A.get(), vp.get(), &zero, vq.get(),
                               CUDA_R_64F, alg, spmv_buffer.get()));
    const double alpha = rz / dot(p.get(), q.get());
    axpy(alpha, p.get(), u.get());  // the solution is not returned, but its update is part of an iteration's cost
    axpy(-alpha, q.get(), r.get());
    precondition();
    const double rz_new = dot(r.get(), z.get()), beta = rz_new / rz;
    rz = rz_new;
    TDC_LIB_CHECK(cublasDscal(bl.get(), n, &beta, p.get(), 1));  // p = z + beta p: cuBLAS has no xpby
    axpy(1.0, z.get(), p.get());
    res.residual_history.push_back(std::sqrt(dot(r.get(), r.get())));
  }
  TDC_CUDA_CHECK(cudaDeviceSynchronize());
  res.ms_per_iteration = iterations > 0 ? ms_since(t1) / iterations : 0.0;
  res.iterations = iterations;
  return res;
}

}  // namespace tdc
#endif
