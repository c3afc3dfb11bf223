#include "host_channel.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>

namespace tdc {
namespace {
bool g_available = false;

void check(int err, const char* what) {
  if (err != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}
}  // namespace

bool host_channel_available() { return g_available; }
void set_host_channel_available(bool available) { g_available = available; }

// MPI_Wait would spin on a core the workers may need (the other ranks arrive when their own steps let
// them: two CPU ranks on two cores lost 40 % to it); testing with short sleeps leaves it to them.
template <class T>
bool Posted<T>::complete() noexcept {
  int done = 0;
  while (request_ != MPI_REQUEST_NULL) {
    if (MPI_Test(&request_, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) return false;
    if (!done) std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  return true;
}

template <class T>
Posted<T>::~Posted() {
  complete();
}

template <class T>
const std::vector<T>& Posted<T>::values() {
  if (!complete()) throw std::runtime_error("MPI: a test of the host channel failed");
  return values_;
}

template class Posted<int>;
template class Posted<double>;

HostChannel::HostChannel() {
  check(MPI_Comm_dup(MPI_COMM_WORLD, &comm_), "Comm_dup");
  MPI_Comm_size(comm_, &ranks_);
}

HostChannel::~HostChannel() { MPI_Comm_free(&comm_); }

std::unique_ptr<Posted<int>> HostChannel::all_gather(int mine) {
  auto p = std::make_unique<Posted<int>>(std::vector<int>(ranks_));
  static_assert(sizeof(int) == 4, "MPI_INT");
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  p->data()[rank] = mine;
  check(MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, p->data(), 1, MPI_INT, comm_, p->request()), "Iallgather");
  return p;
}

std::unique_ptr<Posted<double>> HostChannel::broadcast(std::vector<double> values, int root) {
  const int n = int(values.size());
  auto p = std::make_unique<Posted<double>>(std::move(values));
  check(MPI_Ibcast(p->data(), n, MPI_DOUBLE, root, comm_, p->request()), "Ibcast");
  return p;
}

}  // namespace tdc
