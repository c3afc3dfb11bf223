#include "exact_fixup.cuh"

#include <map>
#include <mutex>
#include <utility>

#include "cuda_check.hpp"

namespace tdc {

FixupList fixup_list_for(cudaStream_t stream) {
  static std::mutex m;
  static std::map<std::pair<int, cudaStream_t>, FixupList> lists;  // freed at exit with the context
  int device = 0;
  TDC_CUDA_CHECK(cudaGetDevice(&device));
  std::lock_guard<std::mutex> lock(m);
  auto it = lists.find({device, stream});
  if (it != lists.end()) return it->second;
  FixupList f{nullptr, nullptr, nullptr, 1u << 22};  // 16 MB: 25 % of a 256^3 tile
  TDC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&f.count), 2 * sizeof(unsigned)));
  TDC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&f.cells), f.capacity * sizeof(unsigned)));
  TDC_CUDA_CHECK(cudaMemsetAsync(f.count, 0, 2 * sizeof(unsigned), stream));  // ordered before the stream's kernels
  f.done = f.count + 1;
  return lists[{device, stream}] = f;
}

}  // namespace tdc
