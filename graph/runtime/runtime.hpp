// StarPU + StarPU-MPI for the lifetime of a run: environment (scheduler, tracing) set before
// start-up, clean shutdown, and the facts `taskdycore info` prints.
#pragma once
#include <string>
#include <vector>

namespace tdc {

struct RuntimeOptions {
  std::string scheduler = "auto";  // taken unless STARPU_SCHED is set; auto: dmdas beside GPUs, lws without
  std::string trace_dir;            // non-empty: record an FxT trace there
  bool cpu_tasks_with_gpu = false;  // CPU workers may take GPU-capable tasks although GPUs are present
  bool tile_placement = true;       // beside two GPUs or more, a tile's tasks run on its home GPU
};

class Runtime {
 public:
  Runtime(int* argc, char*** argv, const RuntimeOptions& o);
  ~Runtime();
  // The run-time switches read from the environment (TASKDYCORE_FETCH_AHEAD, TASKDYCORE_PEER_COPY):
  // throws std::invalid_argument naming a bad one. The constructor checks them too; the command
  // line checks them first, so that a bad one is refused before anything is written.
  static void check_environment();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }
  int cpu_workers() const;
  int cuda_workers() const;
  std::string scheduler() const;
  // Waits for every submitted task on this rank and synchronises the ranks.
  void wait_all() const;

 private:
  int rank_ = 0, size_ = 1;
  bool owns_mpi_ = false;  // MPI was started here, so it is finalised here
};

// Beside GPUs, every StarPU worker thread polls, and so does the thread that submits the tasks. With
// more CPU and CUDA workers than this rank's cores less one, that thread waits for a core: 15 CPU
// workers beside one GPU on 16 cores made 256^3 MPDATA steps with diagnostics up to 3.7 times slower
// (docs/performance.md, "CPU + GPU"). Returns the warning to print, or "" where the count fits.
std::string oversubscription_warning(int cpu_workers, int cuda_workers, int cores);
// Several ranks with CUDA workers and an MPI that cannot send from GPU memory: every piece and strip
// between ranks then goes through host memory, and steps can be several times slower (two ranks on
// a node of 2 H100s: 51-56 against 7.8 ms/step in one process, docs/performance.md). Returns the
// warning to print, or "".
std::string host_staged_mpi_warning(int ranks, int cuda_workers, bool mpi_sends_from_gpu_memory);
// Whether this MPI, as loaded now, sends from GPU memory (Open MPI's MPIX_Query_cuda_support).
bool mpi_sends_from_gpu_memory();
// The rank as the MPI launcher reports it, before MPI is initialised (for error messages).
int launcher_rank();
// A rank's CPUs: `mine` (the launcher's binding) where the launcher gave the rank exactly its share
// of `node` (the CPUs the launcher itself may use), else the local rank's equal slice of them, so
// that ranks on one node never bind their workers to the same cores (StarPU starts every process's
// binding at PU 0; a binding wider than the share, say a socket for two ranks, may be shared). Open
// MPI binds each of two ranks to one core by default: a rank's GPU worker, MPI progress thread and
// submitting thread then shared that core while the node's others idled.
// `moved`: the launcher had bound the rank tighter than its share, so the submitting thread moves
// onto the slice too (else local rank 0's thread shares core 0 with its spinning GPU worker and
// runs only at the kernel's ticks: two ranks on two H100s 2-2.6 times slower than one process).
struct RankCpus {
  std::vector<int> cpus;
  bool slice = false;  // a slice of the node, not the launcher's binding
  bool moved = false;
};
RankCpus rank_cpus(const std::vector<int>& mine, const std::vector<int>& node, int local_ranks, int local_rank);
// Human-readable description of StarPU's build, workers and devices.
std::string runtime_info(const Runtime& rt);

}  // namespace tdc
