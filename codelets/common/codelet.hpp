// The StarPU side of a codelet: a C++ owner of a starpu_codelet with its history-based perf model
// (so dmda/dmdas learn each kernel's cost per worker kind), and the one way tasks are submitted.
#pragma once
#include <starpu.h>
#include <starpu_mpi.h>

#include <initializer_list>
#include <stdexcept>
#include <string>

namespace tdc {

// Where codelets with a CUDA implementation may run when the node has GPUs: on the GPUs only,
// unless the run lets CPU workers take them too. Measured on an H100 node: 15 CPU cores deliver
// under 1 % of the GPU's MPDATA rate; dmdas placing tiles on them made steps 4-16 % slower, and
// diagnostics placed on them stalled the steps (docs/performance.md). Default: GPUs only.
void set_cpu_tasks_with_gpu(bool allowed);

class Codelet {
 public:
  // `cuda` may be null (CPU-only codelet); CUDA functions are asynchronous on the worker's stream.
  Codelet(const char* name, std::initializer_list<starpu_data_access_mode> modes, starpu_cpu_func_t cpu,
          starpu_cuda_func_t cuda);
  // A codelet whose tasks bring their own buffer list (STARPU_DATA_MODE_ARRAY), e.g. one per tile.
  struct VariableBuffers {};
  Codelet(const char* name, VariableBuffers, starpu_cpu_func_t cpu, starpu_cuda_func_t cuda);
  Codelet(const Codelet&) = delete;
  Codelet& operator=(const Codelet&) = delete;
  starpu_codelet* get() { return &codelet_; }
  const char* name() const { return codelet_.name; }

 private:
  void init(const char* name, starpu_cpu_func_t cpu, starpu_cuda_func_t cuda);
  starpu_perfmodel model_{};
  starpu_codelet codelet_{};
};

// Every task goes through starpu_mpi_task_insert, also with one rank, so that multi-rank runs need
// no second code path; a failed submission is an error, not a silent skip.
template <class... Args>
void insert_task(Codelet& cl, Args... args) {
  const int ret = starpu_mpi_task_insert(MPI_COMM_WORLD, cl.get(), args..., 0);
  if (ret != 0 && ret != -ENODEV)
    throw std::runtime_error(std::string("submitting a ") + cl.name() + " task failed: " + std::to_string(ret));
  if (ret == -ENODEV)
    throw std::runtime_error(std::string("no worker can execute codelet ") + cl.name());
}

// Priorities: halo work is on the critical path of every neighbour, so it goes first.
constexpr int kPrioHalo = 10;
constexpr int kPrioBody = 0;
constexpr int kPrioDiagnostics = -10;

}  // namespace tdc
