// SIGINT/SIGTERM during a run: the handler only records the request; the stepping loop sees it at a
// step boundary, writes a final checkpoint and exits (status 128 + signal). With several ranks the
// ranks agree on it (StopAgreement), so that every rank stops after the same step.
//
// Under Open MPI's mpirun a SIGINT or SIGTERM to mpirun reaches the ranks as SIGCONT at once,
// SIGTERM odls_base_sigkill_timeout seconds later and SIGKILL as long again (the SIGCONT is meant
// to wake stopped ranks). Waiting for the SIGTERM would leave the ranks at most that timeout to
// checkpoint, and keep mpirun waiting twice as long as it had to; so a SIGCONT from the launcher
// (the parent process, or the launcher above a wrapper script) is taken as the SIGTERM it announces,
// unless it resumes the rank after a SIGTSTP (job control, which mpirun forwards). One that resumes
// the rank after a SIGSTOP cannot be told apart: such a job stops with a checkpoint when resumed.
#pragma once
#include <starpu.h>

#include <deque>
#include <memory>
#include <vector>

#include "host_channel.hpp"

namespace tdc {

void install_stop_handlers();
// The signal received (0: none) on this rank.
int stop_signal();

// What the ranks agreed on after a step: a signal some rank received (the lowest-numbered such
// rank's; 0: none) and whether any rank found the flow unstable.
struct AgreedStop {
  int signal = 0;
  bool unstable = false;
  long checked_step = -1;  // StopAgreement: the label the words agreed on were posted with
  bool any() const { return signal != 0 || unstable; }
};
// Collective over ranks (one small gather and broadcast through StarPU-MPI; nothing with one rank).
AgreedStop agree_on_stop(bool unstable_here, int rank, int ranks);

// The same agreement once a step without a round trip on the step's path: each call posts this
// rank's word to every other rank (one int: a non-blocking all-gather on the host channel, or
// StarPU-MPI data where MPI lacks MPI_THREAD_MULTIPLE) and decides on the words posted `lag` calls
// before, which have long arrived; every rank decides from the same words, so they agree. A blocking
// gather and broadcast after every step had each rank's host wait for the other hosts while its GPU
// ran dry. A stop takes effect `lag` steps late. Collective over ranks: every rank makes the same
// calls. One rank decides at once.
class StopAgreement {
 public:
  StopAgreement(int rank, int ranks, int lag);
  ~StopAgreement();  // reads and releases the words still pending, if finish() was not called
  StopAgreement(const StopAgreement&) = delete;
  StopAgreement& operator=(const StopAgreement&) = delete;
  // Posts this rank's word, labelled (the step its check judged: every rank passes the same label);
  // the agreement on the words of `lag` calls ago, with their label (none before that).
  AgreedStop post(bool unstable_here, long label);
  // The agreement on the words still pending, the earliest that stops (else none): a stop that
  // came in the last `lag` steps still counts.
  AgreedStop finish();

 private:
  struct Words {
    std::unique_ptr<Posted<int>> gathered;     // on the host channel: every rank's word
    std::vector<int> value;                    // else this rank's word (the others' arrive in their handles)
    std::vector<starpu_data_handle_t> handle;  // one per rank, owned by it
    long label = -1;
  };
  AgreedStop decide_oldest();
  int rank_, ranks_, lag_;
  std::unique_ptr<HostChannel> channel_;  // where MPI allows it (host_channel.hpp)
  std::deque<Words> pending_;
};

// Collective over ranks: the first non-zero of the ranks' values in rank order (0: none); how rank 0
// tells every rank a decision (the others pass 0). Blocking, through StarPU-MPI (a few calls a run,
// which need no MPI_THREAD_MULTIPLE).
int first_nonzero_over_ranks(int value, int rank, int ranks);

}  // namespace tdc
