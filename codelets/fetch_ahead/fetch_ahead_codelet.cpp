#include "fetch_ahead.hpp"

#include <starpu_mpi.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "../common/codelet.hpp"
#include "../common/send_ahead.hpp"
#include "../common/tile_placement.hpp"

namespace tdc {
namespace {

struct FetchAheadTask : CodeletSpec<NoArgs> {  // any number of read-only buffers
  static constexpr const char* name = "fetch_ahead";
  static constexpr bool variable_buffers = true;
  static void cpu(NoArgs, Buffers) {}
  static constexpr auto cuda = [](NoArgs, Buffers, auto) {};
};

// Where fetch-ahead runs: as asked, or (auto) where a rank has a GPU and data moves between GPUs or ranks.
bool enabled(FetchAhead mode) {
  if (mode != FetchAhead::automatic) return mode == FetchAhead::on;
  int ranks = 1;
  starpu_mpi_comm_size(MPI_COMM_WORLD, &ranks);
  const unsigned gpus = starpu_worker_get_count_by_type(STARPU_CUDA_WORKER);
  return gpus >= 2 || (gpus == 1 && ranks > 1);
}

bool same_rank(starpu_data_handle_t h, starpu_data_handle_t run_with) {
  return starpu_mpi_data_get_rank(h) == starpu_mpi_data_get_rank(run_with);
}

// Whether `h` lives where `run_with` does: the same rank and the same GPU (or none).
bool lives_with(starpu_data_handle_t h, starpu_data_handle_t run_with) {
  return same_rank(h, run_with) && home_gpu(h) == home_gpu(run_with);
}

}  // namespace

FetchAhead fetch_ahead_mode() {
  const char* v = std::getenv("TASKDYCORE_FETCH_AHEAD");
  if (!v || std::string(v) == "auto") return FetchAhead::automatic;
  if (std::string(v) == "on") return FetchAhead::on;
  if (std::string(v) == "off") return FetchAhead::off;
  throw std::invalid_argument(std::string("TASKDYCORE_FETCH_AHEAD must be auto, on or off, not \"") + v + "\"");
}

bool fetch_ahead_enabled() { return enabled(fetch_ahead_mode()); }

void insert_fetch_ahead(const std::vector<starpu_data_handle_t>& data, starpu_data_handle_t run_with) {
  const FetchAhead mode = fetch_ahead_mode();
  if (!enabled(mode)) return;
  const bool every = mode == FetchAhead::on;
  // Within a rank their writers send them ahead where this run does (send_ahead.hpp).
  const bool sent = !every && send_ahead_enabled();
  std::vector<starpu_data_descr> read;
  for (starpu_data_handle_t h : data)
    if (every || (!lives_with(h, run_with) && !(sent && same_rank(h, run_with)))) read.push_back({h, STARPU_R});
  if (read.empty()) return;
  TaskOptions o;
  o.priority = kPrioFetchAhead;
  o.run_with = run_with;
  CodeletOf<FetchAheadTask>::insert({}, read, o);
}

}  // namespace tdc
