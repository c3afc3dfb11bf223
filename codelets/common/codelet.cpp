#include "codelet.hpp"

#include "send_ahead.hpp"
#include "tile_placement.hpp"

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

Codelet::Codelet(const char* name, const starpu_data_access_mode* modes, int nbuffers, starpu_cpu_func_t cpu,
                 starpu_cuda_func_t cuda) {
  if (nbuffers > STARPU_NMAXBUFS)
    throw std::logic_error(std::string("codelet ") + name + " has more buffers than StarPU allows");
  init(name, cpu, cuda);
  codelet_.nbuffers = nbuffers;
  for (int n = 0; n < nbuffers; ++n) codelet_.modes[n] = modes[n];
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

void submit_task(Codelet& cl, const void* arg, std::size_t arg_size, const starpu_data_descr* buffers, int n,
                 const TaskOptions& options) {
  const int worker = options.run_with ? home_worker_of(options.run_with) : home_worker(cl.get(), buffers, n);
  const int node = options.node >= 0 || !options.run_with ? options.node : starpu_mpi_data_get_rank(options.run_with);
  auto* d = const_cast<starpu_data_descr*>(buffers);
  const char* name = options.name ? options.name : cl.name();
  // The value only where there is one; a worker or node of -1 leaves the choice to StarPU(-MPI).
  auto insert = [&](auto... value) {
    return starpu_mpi_task_insert(MPI_COMM_WORLD, cl.get(), STARPU_DATA_MODE_ARRAY, d, n, STARPU_PRIORITY,
                                  options.priority, STARPU_NAME, name, STARPU_EXECUTE_ON_WORKER, worker,
                                  STARPU_EXECUTE_ON_NODE, node, value..., 0);
  };
  auto with_value = [&](auto... more) {
    return arg_size > 0 ? insert(STARPU_VALUE, const_cast<void*>(arg), arg_size, more...) : insert(more...);
  };
  const int ret = options.send_ahead && !options.send_ahead->empty()
                      ? with_value(STARPU_CALLBACK_WITH_ARG_NFREE, &SendAhead::start,
                                   static_cast<void*>(const_cast<SendAhead*>(options.send_ahead)))
                      : with_value();
  if (ret == -ENODEV) throw std::runtime_error(std::string("no worker can execute codelet ") + cl.name());
  if (ret != 0)
    throw std::runtime_error(std::string("submitting a ") + cl.name() + " task failed: " + std::to_string(ret));
}

}  // namespace tdc
