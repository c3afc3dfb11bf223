// The StarPU side of a codelet: a C++ owner of a starpu_codelet with its history-based perf model
// (so dmda/dmdas learn each kernel's cost per worker kind), and the one way tasks are submitted.
#pragma once
#include <starpu.h>
#include <starpu_mpi.h>

#include <initializer_list>
#include <stdexcept>
#include <string>

namespace tdc {

// What a codelet is for, which decides where it may run: time-step work stays on GPUs when the
// node has any (unless the run allows CPU workers to take it, see set_cpu_step_tasks); diagnostics
// and other work go to whichever worker is free.
enum class Role { Step, Any };

// Measured on an H100 node: 16 CPU cores deliver under 1 % of the GPU's MPDATA rate, and dmdas
// placing tiles on them made steps 4-7 % slower (docs/performance.md). Default: false.
void set_cpu_step_tasks(bool allowed);

class Codelet {
 public:
  // `cuda` may be null (CPU-only codelet); CUDA functions are asynchronous on the worker's stream.
  Codelet(const char* name, std::initializer_list<starpu_data_access_mode> modes, starpu_cpu_func_t cpu,
          starpu_cuda_func_t cuda, Role role = Role::Step);
  Codelet(const Codelet&) = delete;
  Codelet& operator=(const Codelet&) = delete;
  starpu_codelet* get() { return &codelet_; }
  const char* name() const { return codelet_.name; }

 private:
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
