#include "tile_placement.hpp"

#include <mutex>
#include <unordered_map>
#include <vector>

namespace tdc {
namespace {

struct Placement {
  std::mutex mutex;
  std::unordered_map<starpu_data_handle_t, int> gpu_of;  // index into cuda_workers
  std::vector<int> cuda_workers;
  bool enabled = true;
  bool workers_known = false;
};

Placement& placement() {
  static Placement p;
  return p;
}

// The CUDA workers, read once StarPU runs (handles are registered after starpu_init).
const std::vector<int>& cuda_workers(Placement& p) {
  if (!p.workers_known) {
    const unsigned n = starpu_worker_get_count_by_type(STARPU_CUDA_WORKER);
    p.cuda_workers.assign(n, -1);
    if (n > 0) starpu_worker_get_ids_by_type(STARPU_CUDA_WORKER, p.cuda_workers.data(), n);
    p.workers_known = true;
  }
  return p.cuda_workers;
}

}  // namespace

void set_tile_placement(bool enabled) {
  std::lock_guard<std::mutex> lock(placement().mutex);
  placement().enabled = enabled;
}

void place_tile_data(starpu_data_handle_t h, int tile, int tiles) {
  Placement& p = placement();
  std::lock_guard<std::mutex> lock(p.mutex);
  const int gpus = int(cuda_workers(p).size());
  if (gpus < 2 || tiles <= 0) return;
  // Contiguous runs of tiles per GPU (row-major tile order): neighbours mostly share a GPU.
  p.gpu_of[h] = int((long(tile) * gpus) / tiles);
}

void forget_tile_data(starpu_data_handle_t h) {
  Placement& p = placement();
  std::lock_guard<std::mutex> lock(p.mutex);
  p.gpu_of.erase(h);
}

int home_gpu(starpu_data_handle_t h) {
  Placement& p = placement();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto it = p.gpu_of.find(h);
  return it == p.gpu_of.end() ? -1 : it->second;
}

int home_worker_of(starpu_data_handle_t h) {
  Placement& p = placement();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto it = p.gpu_of.find(h);
  return it == p.gpu_of.end() || !p.enabled ? -1 : cuda_workers(p)[it->second];
}

int home_worker(const starpu_codelet* cl, const starpu_data_descr* buffers, int n) {
  Placement& p = placement();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (!p.enabled || p.gpu_of.empty() || !cl || !cl->cuda_funcs[0]) return -1;
  // The data the task writes decides; else the data it reads.
  auto find = [&](const std::unordered_map<starpu_data_handle_t, int>& map, bool written_only) {
    for (int i = 0; i < n; ++i) {
      if (written_only && !(buffers[i].mode & STARPU_W)) continue;
      auto it = map.find(buffers[i].handle);
      if (it != map.end()) return it->second;
    }
    return -1;
  };
  int home = find(p.gpu_of, true);
  if (home < 0) home = find(p.gpu_of, false);
  return home < 0 ? -1 : cuda_workers(p)[home];
}

}  // namespace tdc
