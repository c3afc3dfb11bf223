#include "codelet.hpp"

namespace tdc {
namespace {

bool g_cpu_tasks_with_gpu = false;

// A CPU worker may take a GPU-capable task only where no CUDA worker exists, or when allowed.
int gpu_first(unsigned workerid, starpu_task*, unsigned) {
  if (g_cpu_tasks_with_gpu || starpu_worker_get_type(int(workerid)) != STARPU_CPU_WORKER) return 1;
  return starpu_worker_get_count_by_type(STARPU_CUDA_WORKER) == 0 ? 1 : 0;
}

}  // namespace

void set_cpu_tasks_with_gpu(bool allowed) { g_cpu_tasks_with_gpu = allowed; }

Codelet::Codelet(const char* name, std::initializer_list<starpu_data_access_mode> modes,
                 starpu_cpu_func_t cpu, starpu_cuda_func_t cuda) {
  if (modes.size() > STARPU_NMAXBUFS)
    throw std::logic_error(std::string("codelet ") + name + " has more buffers than StarPU allows");
  init(name, cpu, cuda);
  codelet_.nbuffers = int(modes.size());
  int n = 0;
  for (starpu_data_access_mode m : modes) codelet_.modes[n++] = m;
}

Codelet::Codelet(const char* name, VariableBuffers, starpu_cpu_func_t cpu, starpu_cuda_func_t cuda) {
  init(name, cpu, cuda);
  codelet_.nbuffers = STARPU_VARIABLE_NBUFFERS;
}

void Codelet::init(const char* name, starpu_cpu_func_t cpu, starpu_cuda_func_t cuda) {
  starpu_perfmodel_init(&model_);
  model_.type = STARPU_HISTORY_BASED;
  model_.symbol = name;
  starpu_codelet_init(&codelet_);
  codelet_.name = name;
  codelet_.model = &model_;
  codelet_.cpu_funcs[0] = cpu;
  codelet_.cpu_funcs_name[0] = name;
#if defined(STARPU_USE_CUDA) && defined(TASKDYCORE_HAVE_CUDA)
  if (cuda) {
    codelet_.cuda_funcs[0] = cuda;
    codelet_.cuda_flags[0] = STARPU_CUDA_ASYNC;
  }
#else
  (void)cuda;
#endif
  if (cuda) codelet_.can_execute = gpu_first;
}

}  // namespace tdc
