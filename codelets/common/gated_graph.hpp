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

// Off: the launches are made directly (each kernel still tests the state), for profilers such as
// Nsight Compute, which cannot profile kernels inside graphs that hold conditional nodes. Default on;
// set before the first launch (the runtime does, from TASKDYCORE_GATED_GRAPHS=off).
void set_gated_graphs(bool on);

// Runs record(capture_stream)'s launches on `stream` if *done < skip_from when the stream gets there.
// `key` must determine every launch `record` makes: a key seen before replays its graph. The cache is
// per thread (a StarPU CUDA worker drives one device).
void launch_gated(const std::string& key, const double* done, double skip_from, cudaStream_t stream,
                  const std::function<void(cudaStream_t)>& record);

// A loop on the device: the launches of one round, recorded once, run while *done < skip_from, at most
// `rounds` times, as one graph launch (a while node): no launch or host round trip per round, and no
// round once the solver state says done. The round's last kernel must call loop_next (one thread, after
// its last change to *done). Then tail's launches, if any, once (their kernels test the state
// themselves). `rounds` is set at each launch (one recording serves any count); put whatever decides
// the tail in the key.
struct DeviceLoop {
  cudaGraphConditionalHandle handle = 0;
  int* rounds_left = nullptr;  // nullptr: not in a graph (launches made directly: loop_next does nothing)
  const double* done = nullptr;
  double skip_from = 0.0;
};
void launch_gated_loop(const std::string& key, const double* done, double skip_from, int rounds, cudaStream_t stream,
                       const std::function<void(cudaStream_t, const DeviceLoop&)>& record,
                       const std::function<void(cudaStream_t)>& tail = nullptr);
#if defined(__CUDACC__)
__device__ inline void loop_next(const DeviceLoop& loop) {
  if (!loop.rounds_left) return;
  const int left = --*loop.rounds_left;
  cudaGraphSetConditional(loop.handle, left > 0 && *loop.done < loop.skip_from ? 1u : 0u);
}
#endif

}  // namespace tdc
