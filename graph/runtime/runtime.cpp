#include "runtime.hpp"

#include <starpu.h>
#include <starpu_expert.h>
#include <starpu_mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's extensions: MPIX_Query_cuda_support
#endif

#include "../../codelets/common/codelet.hpp"
#include "../../codelets/common/peer_copied_vector.hpp"
#include "../../codelets/common/send_ahead.hpp"
#include "../../codelets/common/tile_placement.hpp"
#include "../../codelets/fetch_ahead/fetch_ahead.hpp"
#include "host_channel.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <algorithm>
#include <vector>

#include <sched.h>
#include <unistd.h>

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>

#include "../../codelets/common/gated_graph.hpp"
#endif

namespace tdc {

namespace {

// The first of the launchers' variables that is set (Open MPI, MPICH/PMI, PMIx, Slurm), else `fallback`.
int launcher_value(std::initializer_list<const char*> names, int fallback) {
  for (const char* v : names)
    if (const char* s = std::getenv(v)) return std::atoi(s);
  return fallback;
}

}  // namespace

int launcher_rank() { return launcher_value({"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"}, 0); }

RankCpus rank_cpus(const std::vector<int>& mine, const std::vector<int>& node, int local_ranks, int local_rank) {
  const int ranks = std::max(1, local_ranks), share = std::max(1, int(node.size()) / ranks);
  // StarPU follows the launcher's binding itself, unless the launcher bound nothing (mpirun
  // --bind-to none): then every rank would bind its workers from PU 0 on.
  // A binding wider than the share (a socket for each of several ranks) may be another rank's too, whose
  // workers StarPU would then bind to the same cores: the slice then as well.
  const bool unbound = mine.size() == node.size();
  if (ranks == 1 || node.empty() || (int(mine.size()) == share && !unbound)) return {mine, false, false};
  const int first = std::max(0, std::min(int(node.size()) - share, (local_rank % ranks) * share));
  return {std::vector<int>(node.begin() + first, node.begin() + first + share), true, !unbound};
}

namespace {

#if defined(TASKDYCORE_HAVE_CUDA)
// TASKDYCORE_GATED_GRAPHS=off: the solver's CUDA launches are made directly, for profilers.
bool gated_graphs_off() {
  const char* v = std::getenv("TASKDYCORE_GATED_GRAPHS");
  return v && std::string(v) == "off";
}
#endif

// The logical CPUs process `pid` (0: this one) may run on: the launcher's binding, or every online CPU.
std::vector<int> allowed_cpus(pid_t pid = 0) {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(pid, sizeof(set), &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) cpus.push_back(c);
  if (cpus.empty())
    for (int c = 0; c < int(std::thread::hardware_concurrency()); ++c) cpus.push_back(c);
  return cpus;
}

int local_ranks() {
  return std::max(1, launcher_value({"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "SLURM_NTASKS_PER_NODE"}, 1));
}

int local_rank() {
  return std::max(0, launcher_value({"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}, 0));
}

std::string join(const std::vector<int>& v) {
  std::string s;
  for (int x : v) s += (s.empty() ? "" : " ") + std::to_string(x);
  return s;
}

bool g_bound_tighter_than_share = false;  // the submitting thread moves onto the share too

// This rank's CPUs (rank_cpus), with StarPU's workers bound to a slice where one is taken. Set once
// per process.
const std::vector<int>& cpus_of_this_rank() {
  static const std::vector<int> cpus = [] {
    const RankCpus r = rank_cpus(allowed_cpus(), allowed_cpus(getppid()), local_ranks(), local_rank());
    g_bound_tighter_than_share = r.moved;
    if (r.slice && !std::getenv("STARPU_WORKERS_CPUID") && !std::getenv("STARPU_WORKERS_COREID")) {
      setenv("STARPU_WORKERS_GETBIND", "0", 0);  // the launcher's tighter binding is not StarPU's to follow
      setenv("STARPU_WORKERS_CPUID", join(r.cpus).c_str(), 1);
    }
    return r.cpus;
  }();
  return cpus;
}

int gpu_count() {
  int devices = 0;
#if defined(TASKDYCORE_HAVE_CUDA)
  if (std::getenv("STARPU_NCUDA") && std::atoi(std::getenv("STARPU_NCUDA")) == 0) return 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess) devices = 0;
#endif
  return devices;
}

// Where the rank took a slice in place of the launcher's binding (RankCpus::moved): the thread that
// submits the tasks, and the threads it starts (MPI's, StarPU-MPI's progress thread), leave the
// launcher's core for the slice (docs/performance.md, "Two ranks"). Called before MPI starts and again
// before StarPU does (should MPI's start-up bind the process anew).
void submitting_thread_on_the_share(const std::vector<int>& cpus) {
  if (!g_bound_tighter_than_share) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus) CPU_SET(c, &set);
  sched_setaffinity(0, sizeof(set), &set);
}

// Worker placement, unless the user set it. Without a GPU every CPU of the rank computes (on small
// nodes, keeping one back for StarPU-MPI's progress thread halves the compute); the progress thread
// is then left unbound rather than bound on top of a worker, which StarPU warns about. Beside GPUs,
// StarPU's own count (a core per GPU worker, one for MPI) fits; only the CPU list is this rank's.
void default_workers(const std::vector<int>& cpus) {
  if (gpu_count() > 0) return;
  if (!std::getenv("STARPU_NCPU")) setenv("STARPU_NCPU", std::to_string(cpus.size()).c_str(), 1);
  if (!std::getenv("STARPU_MPI_THREAD_CPUID") && !std::getenv("STARPU_MPI_THREAD_COREID"))
    setenv("STARPU_MPI_NOBIND", "1", 0);
}

// StarPU-MPI's progress thread polls while any request is pending, which in a step graph (receives
// posted ahead of their tasks) is always. Where the rank's workers leave it no core of its own, it
// yields the core after each polling pass (STARPU_MPI_PROGRESS_YIELD, tools/patches/): spinning, it
// took four fifths of the CPU time of 2 ranks on 2 cores from their workers (docs/performance.md,
// "Two ranks on CPUs"). The worker counts are StarPU's defaults unless set.
void progress_thread_yields_where_oversubscribed(const std::vector<int>& cpus) {
  const int cores = int(cpus.size());
  const char* ncpu = std::getenv("STARPU_NCPU");
  const char* ncuda = std::getenv("STARPU_NCUDA");
  const int cuda = ncuda ? std::max(0, std::atoi(ncuda)) : gpu_count();
  const int cpu = ncpu ? std::max(0, std::atoi(ncpu)) : std::max(1, cores - cuda - 1);
  if (cpu + cuda + 1 > cores) setenv("STARPU_MPI_PROGRESS_YIELD", "1", 0);
}

// StarPU-MPI's cooperative sends (STARPU_MPI_COOP_SENDS, on by default) forward data read on several
// ranks from rank to rank, a tree of store-and-forward hops. The split chains' ends go from every
// tile to every other at once, on the step's path: 4 ranks of 4 H100s took 8.67-8.91 ms a
// Taylor-Green step with them and 7.77-8.13 without, the same bits (docs/performance.md). Direct
// sends, unless set.
void direct_mpi_sends() { setenv("STARPU_MPI_COOP_SENDS", "0", 0); }

// Perf-model calibration lives per build (kernels and StarPU version) and per machine (StarPU names
// its files after the host) in the cache, not in the user's home; the first runs calibrate. (StarPU
// 1.4 would put it in $XDG_CACHE_HOME/.starpu, shared by every build, so the directory is named.)
bool default_calibration_home() {
  if (std::getenv("STARPU_PERF_MODEL_DIR") || std::getenv("STARPU_HOME")) return false;
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::filesystem::path cache = xdg && *xdg ? xdg : std::string(home ? home : "/tmp") + "/.cache";
  const std::filesystem::path dir = cache / "taskdycore" / "calibration" / TASKDYCORE_BUILD_KEY;
  std::error_code ec;
  const bool fresh = !std::filesystem::exists(dir / "bus", ec);
  std::filesystem::create_directories(dir, ec);
  if (ec) return false;  // an unwritable cache: StarPU's own default then
  setenv("STARPU_PERF_MODEL_DIR", (dir.string() + "/").c_str(), 1);
  return fresh;
}

// StarPU's CPU workers poll for work. Where they leave no core for the other threads of the rank
// (StarPU-MPI's progress thread, the thread that submits the tasks), an idle worker gives its core
// away; otherwise every MPI message and every submission waits for the scheduler's time slice
// (docs/performance.md, "Two ranks on CPUs").
unsigned yield_when_idle(void*) {
  sched_yield();
  return 0;
}

}  // namespace

std::string oversubscription_warning(int cpu_workers, int cuda_workers, int cores) {
  if (cuda_workers == 0 || cpu_workers + cuda_workers + 1 <= cores) return {};
  return std::to_string(cpu_workers) + " CPU and " + std::to_string(cuda_workers) + " CUDA workers on " +
         std::to_string(cores) + " cores leave none for the thread that submits the tasks; " +
         "CPU+GPU steps can be several times slower (docs/performance.md). Use STARPU_NCPU=" +
         std::to_string(std::max(0, cores - cuda_workers - 1)) + " or fewer, or leave it unset.";
}

std::string host_staged_mpi_warning(int ranks, int cuda_workers, bool mpi_sends_from_gpu_memory) {
  if (ranks < 2 || cuda_workers == 0 || mpi_sends_from_gpu_memory) return {};
  return std::to_string(ranks) +
         " ranks with GPUs, but this MPI cannot send from GPU memory: data between ranks goes through host "
         "memory, and steps can be several times slower (docs/performance.md). Build with TASKDYCORE_MPI=cuda "
         "(README, \"Scaling\") and run with its mpirun, or run one process with several GPUs.";
}

bool mpi_sends_from_gpu_memory() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

void Runtime::check_environment() {
  fetch_ahead_mode();
  peer_copy_mode();
  send_ahead_allowed();
}

Runtime::Runtime(int* argc, char*** argv, const RuntimeOptions& o) {
  // dmdas places GPU work by its perf models and data; on CPU workers alone those models (noisy on a
  // busy node) cost more than they save: lws ran the dycore's steps 3-25 % faster on 2 cores
  // (docs/performance.md, "CPU against libmpdata++").
  check_environment();  // before anything starts
  const std::string scheduler = o.scheduler != "auto" ? o.scheduler : gpu_count() > 0 ? "dmdas" : "lws";
  setenv("STARPU_SCHED", scheduler.c_str(), 0);
  // StarPU's own messages only on request (--verbose or STARPU_SILENT=0); what matters is said by us.
  setenv("STARPU_SILENT", "1", 0);
  const std::vector<int>& cpus = cpus_of_this_rank();
  default_workers(cpus);
  progress_thread_yields_where_oversubscribed(cpus);
  direct_mpi_sends();
  const bool calibrating = default_calibration_home();
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
  // (no mpirun) once hung in Open MPI's start-up for minutes (CI).
  // A CUDA-aware Open MPI (TASKDYCORE_MPI=cuda) warns at start-up on a machine without libcuda; there
  // it simply moves host memory, which is all such a machine has.
  setenv("OMPI_MCA_opal_warn_on_missing_libcuda", "0", 0);
  // MPI_THREAD_MULTIPLE lets the host exchange its small values through MPI itself while StarPU-MPI's
  // thread moves the data (host_channel.hpp); StarPU-MPI alone needs MPI_THREAD_SERIALIZED.
  int initialized = 0, provided = 0;
  submitting_thread_on_the_share(cpus);  // before MPI too, whose own threads then start on the share
  MPI_Initialized(&initialized);
  if (!initialized) {
    if (MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
      throw std::runtime_error("MPI failed to start");
    if (provided < MPI_THREAD_SERIALIZED) {
      MPI_Finalize();
      throw std::runtime_error("the MPI library does not support MPI_THREAD_SERIALIZED, which StarPU-MPI needs");
    }
    owns_mpi_ = true;
  } else {
    MPI_Query_thread(&provided);
  }
  set_host_channel_available(provided == MPI_THREAD_MULTIPLE);
  submitting_thread_on_the_share(cpus);
  starpu_conf conf;
  starpu_conf_init(&conf);
  const int ret = starpu_mpi_init_conf(argc, argv, 0, MPI_COMM_WORLD, &conf);
  if (ret != 0) {
    if (owns_mpi_) MPI_Finalize();
    throw std::runtime_error("StarPU-MPI failed to start (" + std::to_string(ret) + ")");
  }
  set_cpu_tasks_with_gpu(o.cpu_tasks_with_gpu);
  // Where CPU workers may take tiles too, the scheduler places them.
  set_tile_placement(o.tile_placement && !o.cpu_tasks_with_gpu);
#if defined(TASKDYCORE_HAVE_CUDA)
  set_gated_graphs(!gated_graphs_off());
#endif
  starpu_mpi_comm_rank(MPI_COMM_WORLD, &rank_);
  starpu_mpi_comm_size(MPI_COMM_WORLD, &size_);
  if (cpu_workers() + cuda_workers() + 1 > int(cpus.size())) starpu_idle_hook_register(yield_when_idle, nullptr);
  const std::string warning = oversubscription_warning(cpu_workers(), cuda_workers(), int(cpus.size()));
  if (!warning.empty()) std::fprintf(stderr, "taskdycore: warning (rank %d): %s\n", rank_, warning.c_str());
  const std::string staged = host_staged_mpi_warning(size_, cuda_workers(), mpi_sends_from_gpu_memory());
  if (!staged.empty() && rank_ == 0) std::fprintf(stderr, "taskdycore: warning: %s\n", staged.c_str());
  if (calibrating && rank_ == 0)
    std::fprintf(stderr,
                 "taskdycore: calibrating performance models for this build and machine in %s: "
                 "the first runs are slower\n",
                 std::getenv("STARPU_PERF_MODEL_DIR"));
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
  os << "MPI ranks: " << rt.size() << "; sends from GPU memory (CUDA-aware MPI): "
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
     << (mpi_sends_from_gpu_memory() ? "yes" : "no (the MPI loaded now is not the CUDA-aware one this was built with)")
#else
     << "no (this MPI was built without CUDA; TASKDYCORE_MPI=cuda builds one)"
#endif
     << "\n";
  os << "scheduler: " << rt.scheduler() << "\n";
  const char* copy_env = std::getenv("TASKDYCORE_PEER_COPY");
  os << "copies between GPUs (1 MiB and more): " << peer_copy_name(effective_peer_copy())
     << " (TASKDYCORE_PEER_COPY=" << (copy_env ? copy_env : "auto") << ")\n";
  const char* send_env = std::getenv("TASKDYCORE_SEND_AHEAD");
  os << "data a task writes for another GPU of the rank: "
     << (send_ahead_enabled() ? "sent as the task ends" : "fetched when its reader is pushed (or fetched ahead)")
     << " (TASKDYCORE_SEND_AHEAD=" << (send_env ? send_env : "auto") << ")\n";
  os << "workers: " << starpu_worker_get_count() << " (" << rt.cpu_workers() << " CPU, " << rt.cuda_workers()
     << " CUDA)\n";
  for (unsigned w = 0; w < starpu_worker_get_count(); ++w) {
    char name[128];
    starpu_worker_get_name(int(w), name, sizeof(name));
    const int pu = starpu_worker_get_bindid(int(w));
    os << "  " << w << ": " << name << ", "
       << (pu >= 0 ? "bound to CPU " + std::to_string(pu) : std::string("not bound")) << "\n";
  }
  const char* mpi_cpu = std::getenv("STARPU_MPI_THREAD_CPUID");
  const char* mpi_nobind = std::getenv("STARPU_MPI_NOBIND");
  os << "  MPI progress thread: "
     << (mpi_cpu                               ? std::string("bound to CPU ") + mpi_cpu
         : mpi_nobind && std::atoi(mpi_nobind) ? std::string("not bound (no CPU is free of workers)")
                                               : std::string("on a CPU StarPU keeps free of workers"))
     << (std::getenv("STARPU_MPI_PROGRESS_YIELD") && std::atoi(std::getenv("STARPU_MPI_PROGRESS_YIELD"))
             ? "; yields its core after each polling pass"
             : "")
     << "\n";
  os << "  task-submitting thread (main): "
     << (g_bound_tighter_than_share ? "moved from the launcher's binding onto" : "not bound; runs on")
     << " this rank's CPUs: " << join(cpus_of_this_rank()) << "\n";
  if (const char* dir = std::getenv("STARPU_PERF_MODEL_DIR")) os << "performance models: " << dir << "\n";
#if defined(TASKDYCORE_HAVE_CUDA)
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess) devices = 0;
  for (int d = 0; d < devices; ++d) {
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, d);
    os << "CUDA device " << d << ": " << p.name << ", " << (p.totalGlobalMem >> 20) << " MiB, sm_" << p.major << p.minor
       << ", " << p.multiProcessorCount << " SMs\n";
  }
  if (devices == 0) os << "CUDA devices: none found\n";
#endif
  return os.str();
}

}  // namespace tdc
