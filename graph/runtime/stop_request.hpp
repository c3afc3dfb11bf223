// SIGINT/SIGTERM during a run: the handler only records the request; the stepping loop sees it at a
// step boundary, writes a final checkpoint and exits (status 128 + signal). With several ranks the
// request is agreed on at chunk boundaries, so that every rank stops after the same step.
#pragma once

namespace tdc {

void install_stop_handlers();
// The signal received (0: none) on this rank.
int stop_signal();
// Collective over ranks: a signal some rank received (the lowest-numbered such rank's; 0: none). Uses StarPU-MPI data
// exchanges, not MPI calls beside StarPU's own thread.
int agreed_stop_signal(int rank, int ranks);
// Collective over ranks: the first non-zero of the ranks' values in rank order (0: none); how rank 0
// tells every rank a decision (the others pass 0). StarPU-MPI initialises MPI for its own thread
// (MPI_THREAD_SERIALIZED): while StarPU runs, the host must not call MPI itself.
int first_nonzero_over_ranks(int value, int rank, int ranks);

}  // namespace tdc
