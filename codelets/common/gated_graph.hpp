// Work on a CUDA stream that the solver state switches off as a whole. The launches are recorded once
// per key into a CUDA graph whose body sits behind a conditional node; a one-thread kernel opens the
// body only while the solve runs (state done < skip_from). A skipped body then costs that one small
// kernel, not a full-size launch per kernel (a skipped 256^3 V-cycle took 0.14 ms as launches), and a
// body that runs is launched as one graph. The kernels inside still test the state: the same bits.
#pragma once
#include <cuda_runtime_api.h>

#include <functional>
#include <string>
#include <type_traits>

namespace tdc {

// The bytes of everything a recording depends on (pointers, layouts, scalars), as a cache key. Only
// types without padding (whose bytes are their value) or numbers: pass a padded struct's fields.
template <class... T>
std::string gate_key(const T&... parts) {
  std::string key;
  auto add = [&key](const auto& p) {
    using P = std::decay_t<decltype(p)>;
    static_assert(std::has_unique_object_representations_v<P> || std::is_floating_point_v<P>,
                  "gate_key: a type with padding bytes; pass its fields");
    key.append(reinterpret_cast<const char*>(&p), sizeof(p));
  };
  (add(parts), ...);
  return key;
}

// Runs record(capture_stream)'s launches on `stream` if *done < skip_from when the stream gets there.
// `key` must determine every launch `record` makes: a key seen before replays its graph. The cache is
// per thread (a StarPU CUDA worker drives one device).
void launch_gated(const std::string& key, const double* done, double skip_from, cudaStream_t stream,
                  const std::function<void(cudaStream_t)>& record);

}  // namespace tdc
