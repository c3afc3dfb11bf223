#include "peer_copied_vector.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>

#if defined(TASKDYCORE_HAVE_CUDA)
#include "cuda_check.hpp"
#include "peer_copy.hpp"
#endif

namespace tdc {

PeerCopy peer_copy_mode() {
  const char* v = std::getenv("TASKDYCORE_PEER_COPY");
  if (!v || std::string(v) == "auto") return PeerCopy::automatic;
  if (std::string(v) == "push") return PeerCopy::push;
  if (std::string(v) == "pull") return PeerCopy::pull;
  if (std::string(v) == "engine") return PeerCopy::engine;
  throw std::invalid_argument(std::string("TASKDYCORE_PEER_COPY must be auto, push, pull or engine, not \"") + v +
                              "\"");
}

PeerCopy effective_peer_copy() {
#if defined(TASKDYCORE_HAVE_CUDA)
  const PeerCopy mode = peer_copy_mode();
  if (mode != PeerCopy::automatic) return mode;
  return starpu_worker_get_count_by_type(STARPU_CUDA_WORKER) >= kPeerKernelMinGpus ? PeerCopy::pull : PeerCopy::engine;
#else
  return PeerCopy::engine;
#endif
}

const char* peer_copy_name(PeerCopy m) {
  return m == PeerCopy::push     ? "a kernel on the sending GPU (push)"
         : m == PeerCopy::pull   ? "a kernel on the receiving GPU (pull)"
         : m == PeerCopy::engine ? "the copy engines (cudaMemcpyPeerAsync)"
                                 : "auto";
}

namespace {
std::atomic<std::size_t> kernel_min_bytes{kPeerKernelMinBytes};
}
void set_peer_kernel_min_bytes(std::size_t bytes) { kernel_min_bytes = bytes; }

#if defined(TASKDYCORE_HAVE_CUDA)
namespace {

constexpr int kMaxDevices = 64;

// What a pair of GPUs (sender, receiver) copies with: set up once, on the first copy between them.
// A kernel needs peer access from the GPU it runs on to the other's memory (StarPU enables it where
// it can, but a GPU may refuse a peer); without it the copy engines take the pair. The kernel runs
// on a stream of its own for the pair (on the receiver to pull, on the sender to push) at the
// highest priority, which StarPU's stream then waits for: the copies are on the step's path, and on
// StarPU's copy stream (the default priority) the kernel's blocks waited for those of the passes
// launched before them (4 GPUs, Taylor-Green weak: 1.2 % off the step, docs/performance.md).
struct PeerPair {
  std::once_flag once;
  bool kernel = false;
  cudaStream_t stream = nullptr;
  cudaEvent_t done = nullptr;
};
PeerPair pairs[2][kMaxDevices][kMaxDevices];  // [push][sender][receiver]

// Peer access from `from` to `to` (true when enabled now or before); restores no device.
bool enable_access(int from, int to) {
  int can = 0;
  if (cudaDeviceCanAccessPeer(&can, from, to) != cudaSuccess || !can) return false;
  TDC_CUDA_CHECK(cudaSetDevice(from));
  const cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
  (void)cudaGetLastError();  // AlreadyEnabled is reported as the last error too: clear it
  return e == cudaSuccess || e == cudaErrorPeerAccessAlreadyEnabled;
}

PeerPair& pair(bool push, int src_dev, int dst_dev) {
  PeerPair& p = pairs[push][src_dev][dst_dev];
  std::call_once(p.once, [&] {
    p.kernel = push ? enable_access(src_dev, dst_dev) : enable_access(dst_dev, src_dev);
    if (p.kernel) {
      TDC_CUDA_CHECK(cudaSetDevice(push ? src_dev : dst_dev));
      int least = 0, greatest = 0;
      TDC_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
      TDC_CUDA_CHECK(cudaStreamCreateWithPriority(&p.stream, cudaStreamNonBlocking, greatest));
      TDC_CUDA_CHECK(cudaEventCreateWithFlags(&p.done, cudaEventDisableTiming));
    }
    TDC_CUDA_CHECK(cudaSetDevice(dst_dev));  // the device StarPU set
  });
  return p;
}

// StarPU calls this on the receiving GPU's driver thread (the current device), with its stream for
// copies from the sender, on which it then records the copy's end; -EAGAIN: the copy completes
// asynchronously. No exception may cross StarPU's C code: a CUDA failure ends the process here.
template <bool push>
int cuda_to_cuda_async(void* src_interface, unsigned src_node, void* dst_interface, unsigned dst_node,
                       cudaStream_t stream) {
  try {
    const auto* src = static_cast<const starpu_vector_interface*>(src_interface);
    const auto* dst = static_cast<const starpu_vector_interface*>(dst_interface);
    const std::size_t bytes = std::size_t(src->nx) * src->elemsize;
    void* to = reinterpret_cast<void*>(dst->ptr);
    const void* from = reinterpret_cast<const void*>(src->ptr);
    const int src_dev = starpu_memory_node_get_devid(src_node), dst_dev = starpu_memory_node_get_devid(dst_node);
    (void)cudaGetLastError();  // a failed allocation StarPU retried leaves its error behind
    double start = 0;
    starpu_interface_start_driver_copy_async(src_node, dst_node, &start);
    PeerPair* p = bytes >= kernel_min_bytes && src_dev < kMaxDevices && dst_dev < kMaxDevices
                      ? &pair(push, src_dev, dst_dev)
                      : nullptr;
    if (!p || !p->kernel) {
      TDC_CUDA_CHECK(cudaMemcpyPeerAsync(to, dst_dev, from, src_dev, bytes, stream));
    } else if (push) {
      TDC_CUDA_CHECK(cudaSetDevice(src_dev));
      peer_copy_kernel(to, from, bytes, p->stream);
      TDC_CUDA_CHECK(cudaEventRecord(p->done, p->stream));
      TDC_CUDA_CHECK(cudaSetDevice(dst_dev));  // back to the device StarPU set
      TDC_CUDA_CHECK(cudaStreamWaitEvent(stream, p->done, 0));
    } else {
      peer_copy_kernel(to, from, bytes, p->stream);
      TDC_CUDA_CHECK(cudaEventRecord(p->done, p->stream));
      TDC_CUDA_CHECK(cudaStreamWaitEvent(stream, p->done, 0));
    }
    starpu_interface_end_driver_copy_async(src_node, dst_node, start);
    starpu_interface_data_copy(src_node, dst_node, bytes);  // for traces (StarPU counts the bytes itself)
    return -EAGAIN;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "taskdycore: error: a copy between GPUs failed: %s\n", e.what());
    std::abort();
  }
}

template <bool push>
starpu_data_interface_ops* peer_copied_ops() {
  static starpu_data_copy_methods methods = [] {
    starpu_data_copy_methods m = *starpu_interface_vector_ops.copy_methods;  // any_to_any for the rest
    m.cuda_to_cuda_async = cuda_to_cuda_async<push>;
    return m;
  }();
  static starpu_data_interface_ops ops = [] {
    starpu_data_interface_ops o = starpu_interface_vector_ops;
    o.copy_methods = &methods;
    return o;
  }();
  return &ops;
}

}  // namespace
#endif

void register_peer_copied_vector(starpu_data_handle_t* h, std::size_t doubles) {
#if defined(TASKDYCORE_HAVE_CUDA)
  const PeerCopy mode = effective_peer_copy();  // read here, on the submitting thread, not by StarPU's drivers
  if (mode != PeerCopy::engine) {
    starpu_vector_interface v{};
    v.id = STARPU_VECTOR_INTERFACE_ID;
    v.nx = uint32_t(doubles);
    v.elemsize = sizeof(double);
    v.allocsize = doubles * sizeof(double);
    starpu_data_register(h, -1, &v, mode == PeerCopy::push ? peer_copied_ops<true>() : peer_copied_ops<false>());
    return;
  }
#endif
  starpu_vector_data_register(h, -1, 0, doubles, sizeof(double));
}

}  // namespace tdc
