#include "runtime.hpp"

#include <starpu.h>
#include <starpu_mpi.h>

#include "../codelets/common/codelet.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <algorithm>

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>

#include "../codelets/common/gated_graph.hpp"
#endif

namespace tdc {

int launcher_rank() {
  for (const char* v : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"})
    if (const char* s = std::getenv(v)) return std::atoi(s);
  return 0;
}

namespace {

#if defined(TASKDYCORE_HAVE_CUDA)
// TASKDYCORE_GATED_GRAPHS=off: the solver's CUDA launches are made directly, for profilers.
bool gated_graphs_off() {
  const char* v = std::getenv("TASKDYCORE_GATED_GRAPHS");
  return v && std::string(v) == "off";
}
#endif

// This rank's share of the node's cores.
int cores_per_rank() {
  int local_ranks = 1;
  for (const char* v : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "SLURM_NTASKS_PER_NODE"})
    if (const char* s = std::getenv(v)) {
      local_ranks = std::max(1, std::atoi(s));
      break;
    }
  return std::max(1, int(std::thread::hardware_concurrency()) / local_ranks);
}

// Without a GPU, StarPU-MPI keeps a core back for its progress thread; on small CPU nodes that
// halves the compute. Give each rank its share of the cores unless the user said otherwise.
void default_cpu_workers() {
  if (std::getenv("STARPU_NCPU")) return;
  int devices = 0;
#if defined(TASKDYCORE_HAVE_CUDA)
  if (cudaGetDeviceCount(&devices) != cudaSuccess) devices = 0;
#endif
  if (devices > 0) return;  // StarPU's own default keeps a core per GPU worker and one for MPI: right there
  setenv("STARPU_NCPU", std::to_string(cores_per_rank()).c_str(), 1);
}

}  // namespace

std::string oversubscription_warning(int cpu_workers, int cuda_workers, int cores) {
  if (cuda_workers == 0 || cpu_workers + cuda_workers + 1 <= cores) return {};
  return std::to_string(cpu_workers) + " CPU and " + std::to_string(cuda_workers) + " CUDA workers on " +
         std::to_string(cores) + " cores leave none for the thread that submits the tasks; " +
         "CPU+GPU steps can be several times slower (docs/performance.md). Use STARPU_NCPU=" +
         std::to_string(std::max(0, cores - cuda_workers - 1)) + " or fewer, or leave it unset.";
}

Runtime::Runtime(int* argc, char*** argv, const RuntimeOptions& o) {
  setenv("STARPU_SCHED", o.scheduler.c_str(), 0);
  default_cpu_workers();
  if (!o.trace_dir.empty()) {
    std::filesystem::create_directories(o.trace_dir);
    const std::string prefix = std::filesystem::absolute(o.trace_dir).string() + "/";
    setenv("STARPU_FXT_PREFIX", prefix.c_str(), 1);
    setenv("STARPU_FXT_TRACE", "1", 1);
  } else {
    setenv("STARPU_FXT_TRACE", "0", 0);  // FxT is built in; record only when asked
  }
  // MPI first, from this thread, before StarPU starts its polling workers. Left to StarPU-MPI, MPI_Init
  // ran on its progress thread while the CPU workers spun on every core, and a singleton start
  // (no mpirun) once hung in Open MPI's start-up for minutes (CI, session 18).
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
      throw std::runtime_error("MPI failed to start");
    if (provided < MPI_THREAD_SERIALIZED) {
      MPI_Finalize();
      throw std::runtime_error("the MPI library does not support MPI_THREAD_SERIALIZED, which StarPU-MPI needs");
    }
    owns_mpi_ = true;
  }
  starpu_conf conf;
  starpu_conf_init(&conf);
  const int ret = starpu_mpi_init_conf(argc, argv, 0, MPI_COMM_WORLD, &conf);
  if (ret != 0) {
    if (owns_mpi_) MPI_Finalize();
    throw std::runtime_error("StarPU-MPI failed to start (" + std::to_string(ret) + ")");
  }
  set_cpu_tasks_with_gpu(o.cpu_tasks_with_gpu);
#if defined(TASKDYCORE_HAVE_CUDA)
  set_gated_graphs(!gated_graphs_off());
#endif
  starpu_mpi_comm_rank(MPI_COMM_WORLD, &rank_);
  starpu_mpi_comm_size(MPI_COMM_WORLD, &size_);
  const std::string warning = oversubscription_warning(cpu_workers(), cuda_workers(), cores_per_rank());
  if (!warning.empty()) std::fprintf(stderr, "taskdycore: warning (rank %d): %s\n", rank_, warning.c_str());
}

Runtime::~Runtime() {
  starpu_mpi_wait_for_all(MPI_COMM_WORLD);
  starpu_mpi_barrier(MPI_COMM_WORLD);
  starpu_mpi_shutdown();
  if (owns_mpi_) MPI_Finalize();
}

int Runtime::cpu_workers() const { return int(starpu_worker_get_count_by_type(STARPU_CPU_WORKER)); }
int Runtime::cuda_workers() const { return int(starpu_worker_get_count_by_type(STARPU_CUDA_WORKER)); }

std::string Runtime::scheduler() const {
  const char* s = std::getenv("STARPU_SCHED");
  return s ? s : "eager";
}

void Runtime::wait_all() const {
  starpu_mpi_wait_for_all(MPI_COMM_WORLD);
  starpu_mpi_barrier(MPI_COMM_WORLD);
}

std::string runtime_info(const Runtime& rt) {
  std::ostringstream os;
  os << "StarPU " << STARPU_MAJOR_VERSION << "." << STARPU_MINOR_VERSION << "." << STARPU_RELEASE_VERSION << "\n";
  os << "  built with:";
#ifdef STARPU_USE_CUDA
  os << " CUDA";
#endif
#ifdef STARPU_USE_FXT
  os << " FxT";
#endif
#ifdef STARPU_USE_MPI
  os << " MPI";
#endif
  os << " (max " << STARPU_MAXCPUS << " CPUs, " << STARPU_MAXCUDADEVS << " CUDA devices, " << STARPU_NMAXBUFS
     << " buffers per task)\n";
  os << "taskdycore CUDA kernels: "
#if defined(TASKDYCORE_HAVE_CUDA)
     << "compiled\n";
#else
     << "not compiled (no nvcc at build time)\n";
#endif
  os << "MPI ranks: " << rt.size() << "\n";
  os << "scheduler: " << rt.scheduler() << "\n";
  os << "workers: " << starpu_worker_get_count() << " (" << rt.cpu_workers() << " CPU, " << rt.cuda_workers()
     << " CUDA)\n";
  for (unsigned w = 0; w < starpu_worker_get_count(); ++w) {
    char name[128];
    starpu_worker_get_name(int(w), name, sizeof(name));
    os << "  " << w << ": " << name << "\n";
  }
#if defined(TASKDYCORE_HAVE_CUDA)
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess) devices = 0;
  for (int d = 0; d < devices; ++d) {
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, d);
    os << "CUDA device " << d << ": " << p.name << ", " << (p.totalGlobalMem >> 20) << " MiB, sm_" << p.major
       << p.minor << ", " << p.multiProcessorCount << " SMs\n";
  }
  if (devices == 0) os << "CUDA devices: none found\n";
#endif
  return os.str();
}

}  // namespace tdc
