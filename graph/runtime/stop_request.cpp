#include "stop_request.hpp"

#include <starpu.h>
#include <starpu_mpi.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tiled_field.hpp"

namespace tdc {
namespace {
volatile std::sig_atomic_t g_signal = 0;
volatile std::sig_atomic_t g_job_stopped = 0;  // a SIGTSTP came: the next SIGCONT resumes the run
// The processes between this one and the launcher, the launcher included (a rank may be started
// through a wrapper script): a SIGCONT from one of them is the launcher's. Filled before the handler
// is installed; the handler only reads it.
constexpr int kMaxAncestors = 8;
pid_t g_launcher_chain[kMaxAncestors] = {};

extern "C" void on_stop(int sig) {
  if (!g_signal) g_signal = sig;
}
extern "C" void on_tstp(int) {
  g_job_stopped = 1;
  kill(getpid(), SIGSTOP);  // what SIGTSTP would have done without this handler
}
extern "C" void on_cont(int, siginfo_t* info, void*) {
  if (g_job_stopped) {
    g_job_stopped = 0;
    return;
  }
  if (!info || g_signal) return;
  for (pid_t p : g_launcher_chain)
    if (p > 0 && info->si_pid == p) g_signal = SIGTERM;
}

// The parent's pid and command name of process `pid`, from /proc (false where unreadable).
bool parent_of(pid_t pid, pid_t& parent, std::string& name) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const auto open = line.find('('), close = line.rfind(')');
  if (open == std::string::npos || close == std::string::npos) return false;
  std::istringstream rest(line.substr(close + 2));
  char state;
  rest >> state >> parent;
  std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
  std::getline(comm, name);
  return bool(rest);
}

// From the parent up to the first Open MPI launcher or daemon; only the parent where none is found.
void find_launcher_chain() {
  pid_t p = getppid();
  for (int n = 0; n < kMaxAncestors && p > 1; ++n) {
    g_launcher_chain[n] = p;
    pid_t parent = 0;
    std::string name;
    if (!parent_of(p, parent, name)) break;
    if (name == "mpirun" || name == "mpiexec" || name == "orterun" || name == "orted") return;
    p = parent;
  }
  for (int n = 1; n < kMaxAncestors; ++n) g_launcher_chain[n] = 0;
}

// A word per rank: the signal in the low byte, instability above it.
constexpr int kUnstableBit = 1 << 8;

// Collective: one int handle per rank, owned by it, its host copy value[rank] there (every rank
// registers them in the same order, so their tags agree).
std::vector<starpu_data_handle_t> register_words(std::vector<int>& value, int rank) {
  std::vector<starpu_data_handle_t> h(value.size());
  for (int r = 0; r < int(value.size()); ++r) {
    starpu_variable_data_register(&h[r], r == rank ? STARPU_MAIN_RAM : -1,
                                  r == rank ? reinterpret_cast<uintptr_t>(&value[r]) : 0, sizeof(int));
    starpu_mpi_data_register(h[r], next_data_tag(), r);
  }
  return h;
}

// The words in host memory (waits for those still arriving).
std::vector<int> read_words(const std::vector<starpu_data_handle_t>& h) {
  std::vector<int> all(h.size());
  for (std::size_t r = 0; r < h.size(); ++r) {
    starpu_data_acquire(h[r], STARPU_R);
    all[r] = *static_cast<const int*>(starpu_data_handle_to_pointer(h[r], STARPU_MAIN_RAM));
    starpu_data_release(h[r]);
  }
  return all;
}

// Collective: rank 0 gathers one int from each rank, decides, and sends the decision back.
template <class Decide>
int decide_over_ranks(int mine, int rank, int ranks, Decide decide) {
  std::vector<int> value(ranks, 0);
  int decision = 0;
  value[rank] = mine;
  const std::vector<starpu_data_handle_t> h = register_words(value, rank);
  starpu_data_handle_t d;
  starpu_variable_data_register(&d, rank == 0 ? STARPU_MAIN_RAM : -1,
                                rank == 0 ? reinterpret_cast<uintptr_t>(&decision) : 0, sizeof(int));
  starpu_mpi_data_register(d, next_data_tag(), 0);
  for (int r = 0; r < ranks; ++r) starpu_mpi_get_data_on_node(MPI_COMM_WORLD, h[r], 0);
  if (rank == 0) {
    const std::vector<int> all = read_words(h);
    starpu_data_acquire(d, STARPU_W);
    *static_cast<int*>(starpu_data_handle_to_pointer(d, STARPU_MAIN_RAM)) = decide(all);
    starpu_data_release(d);
  }
  for (int r = 1; r < ranks; ++r) starpu_mpi_get_data_on_node(MPI_COMM_WORLD, d, r);
  starpu_data_acquire(d, STARPU_R);
  const int agreed = *static_cast<const int*>(starpu_data_handle_to_pointer(d, STARPU_MAIN_RAM));
  starpu_data_release(d);
  for (starpu_data_handle_t x : h) starpu_data_unregister(x);
  starpu_data_unregister(d);
  return agreed;
}

int first_nonzero(const std::vector<int>& all) {
  for (int v : all)
    if (v) return v;
  return 0;
}

}  // namespace

void install_stop_handlers() {
  std::signal(SIGINT, on_stop);
  std::signal(SIGTERM, on_stop);
  // Open MPI's launcher announces the end of a job with SIGCONT (see the header).
  if (std::getenv("OMPI_COMM_WORLD_SIZE")) {
    find_launcher_chain();
    struct sigaction cont {};
    cont.sa_sigaction = on_cont;
    cont.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&cont.sa_mask);
    sigaction(SIGCONT, &cont, nullptr);
    struct sigaction tstp {};
    tstp.sa_handler = on_tstp;
    tstp.sa_flags = SA_RESTART;
    sigemptyset(&tstp.sa_mask);
    sigaction(SIGTSTP, &tstp, nullptr);
  }
}

int stop_signal() { return g_signal; }

namespace {

int word_of(bool unstable_here) { return (g_signal & 0xff) | (unstable_here ? kUnstableBit : 0); }

// The lowest-numbered rank's signal, and instability anywhere.
int combine(const std::vector<int>& all) {
  int signal = 0, unstable = 0;
  for (int v : all) {
    if (!signal) signal = v & 0xff;
    unstable |= v & kUnstableBit;
  }
  return signal | unstable;
}

AgreedStop agreed_stop(int word) { return {word & 0xff, (word & kUnstableBit) != 0}; }

}  // namespace

AgreedStop agree_on_stop(bool unstable_here, int rank, int ranks) {
  const int mine = word_of(unstable_here);
  return agreed_stop(ranks == 1 ? mine : decide_over_ranks(mine, rank, ranks, combine));
}

StopAgreement::StopAgreement(int rank, int ranks, int lag) : rank_(rank), ranks_(ranks), lag_(lag) {
  if (ranks_ > 1 && host_channel_available()) channel_ = std::make_unique<HostChannel>();
}

StopAgreement::~StopAgreement() { finish(); }

AgreedStop StopAgreement::finish() {
  AgreedStop first;
  while (!pending_.empty()) {
    const AgreedStop s = decide_oldest();
    if (!first.any()) first = s;
  }
  return first;
}

AgreedStop StopAgreement::post(bool unstable_here, long label) {
  if (ranks_ == 1) {
    AgreedStop now = agreed_stop(word_of(unstable_here));
    now.checked_step = label;
    return now;
  }
  pending_.emplace_back();
  Words& w = pending_.back();
  w.label = label;
  if (channel_) {
    w.gathered = channel_->all_gather(word_of(unstable_here));
  } else {
    w.value.assign(ranks_, 0);
    w.value[rank_] = word_of(unstable_here);
    // Fresh handles every call: nothing cached from an earlier word can stand in for this one.
    w.handle = register_words(w.value, rank_);
    for (int r = 0; r < ranks_; ++r) starpu_mpi_get_data_on_all_nodes_detached(MPI_COMM_WORLD, w.handle[r]);
  }
  return int(pending_.size()) > lag_ ? decide_oldest() : AgreedStop{};
}

AgreedStop StopAgreement::decide_oldest() {
  Words& w = pending_.front();
  const std::vector<int> all = w.gathered ? w.gathered->values() : read_words(w.handle);
  for (starpu_data_handle_t h : w.handle) starpu_data_unregister(h);
  AgreedStop agreed = agreed_stop(combine(all));
  agreed.checked_step = w.label;
  pending_.pop_front();
  return agreed;
}

int first_nonzero_over_ranks(int mine, int rank, int ranks) {
  return ranks == 1 ? mine : decide_over_ranks(mine, rank, ranks, first_nonzero);
}

}  // namespace tdc
