#include "stop_request.hpp"

#include <starpu.h>
#include <starpu_mpi.h>

#include <csignal>
#include <vector>

#include "tiled_field.hpp"

namespace tdc {
namespace {
volatile std::sig_atomic_t g_signal = 0;
extern "C" void on_stop(int sig) {
  if (!g_signal) g_signal = sig;
}
}  // namespace

void install_stop_handlers() {
  std::signal(SIGINT, on_stop);
  std::signal(SIGTERM, on_stop);
}

int stop_signal() { return g_signal; }

int agreed_stop_signal(int rank, int ranks) { return first_nonzero_over_ranks(g_signal, rank, ranks); }

int first_nonzero_over_ranks(int mine, int rank, int ranks) {
  if (ranks == 1) return mine;
  // Every rank owns one int; rank 0 gathers them, decides, and sends the decision back.
  std::vector<int> value(ranks, 0);
  int decision = 0;
  value[rank] = mine;
  std::vector<starpu_data_handle_t> h(ranks);
  starpu_data_handle_t d;
  for (int r = 0; r < ranks; ++r) {
    starpu_variable_data_register(&h[r], r == rank ? STARPU_MAIN_RAM : -1,
                                  r == rank ? reinterpret_cast<uintptr_t>(&value[r]) : 0, sizeof(int));
    starpu_mpi_data_register(h[r], next_data_tag(), r);
  }
  starpu_variable_data_register(&d, rank == 0 ? STARPU_MAIN_RAM : -1,
                                rank == 0 ? reinterpret_cast<uintptr_t>(&decision) : 0, sizeof(int));
  starpu_mpi_data_register(d, next_data_tag(), 0);
  for (int r = 0; r < ranks; ++r) starpu_mpi_get_data_on_node(MPI_COMM_WORLD, h[r], 0);
  if (rank == 0) {
    int first = 0;
    for (int r = 0; r < ranks; ++r) {
      starpu_data_acquire(h[r], STARPU_R);
      const int v = *static_cast<const int*>(starpu_data_handle_to_pointer(h[r], STARPU_MAIN_RAM));
      starpu_data_release(h[r]);
      if (!first && v) first = v;
    }
    starpu_data_acquire(d, STARPU_W);
    *static_cast<int*>(starpu_data_handle_to_pointer(d, STARPU_MAIN_RAM)) = first;
    starpu_data_release(d);
  }
  for (int r = 1; r < ranks; ++r) starpu_mpi_get_data_on_node(MPI_COMM_WORLD, d, r);
  starpu_data_acquire(d, STARPU_R);
  const int agreed = *static_cast<const int*>(starpu_data_handle_to_pointer(d, STARPU_MAIN_RAM));
  starpu_data_release(d);
  for (auto& x : h) starpu_data_unregister(x);
  starpu_data_unregister(d);
  return agreed;
}

}  // namespace tdc
