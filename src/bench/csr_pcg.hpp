// A matrix-explicit PCG baseline (paper 002 §6.2): the thin-shell operator assembled into CSR and its
// vertical tridiagonal blocks stored as three diagonals, solved with a hand-written CSR SpMV and
// Thomas solves on the CPU, or with cuSPARSE and cuBLAS on the GPU. It exists to be compared with the
// matrix-free solvers (graph/elliptic_solver), which recompute the same stencil from per-level vectors.
#pragma once
#include <vector>

#include "../elliptic/thin_shell.hpp"

namespace tdc {

struct CsrPcgResult {
  int iterations = 0;                    // iterations carried out
  double ms_per_iteration = 0;           // wall time of the iteration loop / iterations (setup excluded)
  double setup_ms = 0;                   // matrix assembly + (GPU) upload + buffer sizing
  double nnz = 0;                        // stored nonzeros of A
  std::vector<double> residual_history;  // ||r_i|| (2-norm), i = 0..iterations
};

// The global operator, unknown (i, j, k) at row i + nx (j + ny k): A in CSR with sorted column indices,
// and M (the vertical tridiagonal blocks of A) as sub-, main and super-diagonals in the interleaved
// layout of cusparse<t>gtsvInterleavedBatch (column c = i + nx j, level k at c + k * columns), with
// dl = 0 at the bottom level and du = 0 at the top.
struct CsrSystem {
  int columns = 0, nz = 0;
  std::vector<int> row_ptr, col;
  std::vector<double> val;
  std::vector<double> dl, d, du;
  int rows() const { return columns * nz; }
};
CsrSystem assemble_csr(const ThinShell& shell);
std::vector<double> global_rhs(const ThinShell& shell);  // shell.rhs in the same ordering

// PCG on the global thin-shell problem A u = f (f = shell.rhs, u0 = 0), exactly `iterations` iterations
// (no early stop, so the timing is per iteration), preconditioned by the vertical tridiagonal blocks of A.
CsrPcgResult csr_pcg_cpu(const ThinShell& shell, int iterations);
#if defined(TASKDYCORE_HAVE_CUDA)
CsrPcgResult csr_pcg_cuda(const ThinShell& shell, int iterations);  // on the current CUDA device
#endif

// y = A x with the assembled CSR matrix (x and y in the global ordering), for the tests.
std::vector<double> csr_apply_for_test(const ThinShell& shell, const std::vector<double>& x);

}  // namespace tdc
