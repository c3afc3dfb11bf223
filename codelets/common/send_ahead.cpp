#include "send_ahead.hpp"

#include <starpu_mpi.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "tile_placement.hpp"

namespace tdc {

bool send_ahead_allowed() {
  const char* v = std::getenv("TASKDYCORE_SEND_AHEAD");
  if (!v || std::string(v) == "auto") return true;
  if (std::string(v) == "off") return false;
  throw std::invalid_argument(std::string("TASKDYCORE_SEND_AHEAD must be auto or off, not \"") + v + "\"");
}

bool send_ahead_enabled() { return send_ahead_allowed() && starpu_worker_get_count_by_type(STARPU_CUDA_WORKER) >= 2; }

void SendAhead::add(starpu_data_handle_t data, starpu_data_handle_t reader) {
  int rank = 0;
  starpu_mpi_comm_rank(MPI_COMM_WORLD, &rank);
  if (starpu_mpi_data_get_rank(data) != rank || starpu_mpi_data_get_rank(reader) != rank) return;  // StarPU-MPI's
  const int to = home_worker_of(reader);
  if (to < 0) return;
  const std::pair<starpu_data_handle_t, unsigned> copy{data, starpu_worker_get_memory_node(unsigned(to))};
  if (std::find(copies_.begin(), copies_.end(), copy) == copies_.end()) copies_.push_back(copy);
}

void SendAhead::start(void* arg) {
  const int worker = starpu_worker_get_id();  // the writer's (a callback runs on its worker)
  const unsigned here = worker >= 0 ? starpu_worker_get_memory_node(unsigned(worker)) : STARPU_MAIN_RAM;
  for (const auto& [data, node] : static_cast<const SendAhead*>(arg)->copies_)
    if (node != here) starpu_data_fetch_on_node(data, node, 1);
}

}  // namespace tdc
