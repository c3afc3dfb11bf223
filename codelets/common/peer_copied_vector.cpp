#include "peer_copied_vector.hpp"

#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <string>

#if defined(TASKDYCORE_HAVE_CUDA)
#include "cuda_check.hpp"
#include "peer_copy.hpp"
#endif

namespace tdc {

PeerCopy peer_copy_mode() {
  const char* v = std::getenv("TASKDYCORE_PEER_COPY");
  if (!v || std::string(v) == "push") return PeerCopy::push;
  if (std::string(v) == "pull") return PeerCopy::pull;
  if (std::string(v) == "engine") return PeerCopy::engine;
  throw std::invalid_argument(std::string("TASKDYCORE_PEER_COPY must be push, pull or engine, not \"") + v + "\"");
}

#if defined(TASKDYCORE_HAVE_CUDA)
namespace {

constexpr int kMaxDevices = 64;

// Push: the kernel runs on the sender, on a stream of its own for this pair, and StarPU's stream
// waits for it. Only the receiver's driver thread copies into it, so each pair's stream and event
// are used by one thread (created on first use).
struct PushChannel {
  cudaStream_t stream = nullptr;
  cudaEvent_t done = nullptr;
};
PushChannel push_channels[kMaxDevices][kMaxDevices];

void push_copy(void* dst, int dst_dev, const void* src, int src_dev, std::size_t bytes, cudaStream_t stream) {
  PushChannel& c = push_channels[src_dev][dst_dev];
  TDC_CUDA_CHECK(cudaSetDevice(src_dev));
  if (!c.stream) {
    TDC_CUDA_CHECK(cudaStreamCreateWithFlags(&c.stream, cudaStreamNonBlocking));
    TDC_CUDA_CHECK(cudaEventCreateWithFlags(&c.done, cudaEventDisableTiming));
  }
  peer_copy_kernel(dst, src, bytes, c.stream);
  TDC_CUDA_CHECK(cudaEventRecord(c.done, c.stream));
  TDC_CUDA_CHECK(cudaSetDevice(dst_dev));  // back to the device StarPU set
  TDC_CUDA_CHECK(cudaStreamWaitEvent(stream, c.done, 0));
}

// StarPU calls this on the receiving GPU's driver thread (the current device), with its stream for
// copies from the sender, on which it then records the copy's end; -EAGAIN: the copy completes
// asynchronously.
int cuda_to_cuda_async(void* src_interface, unsigned src_node, void* dst_interface, unsigned dst_node,
                       cudaStream_t stream) {
  const auto* src = static_cast<const starpu_vector_interface*>(src_interface);
  const auto* dst = static_cast<const starpu_vector_interface*>(dst_interface);
  const std::size_t bytes = std::size_t(src->nx) * src->elemsize;
  void* to = reinterpret_cast<void*>(dst->ptr);
  const void* from = reinterpret_cast<const void*>(src->ptr);
  const int src_dev = starpu_memory_node_get_devid(src_node), dst_dev = starpu_memory_node_get_devid(dst_node);
  double start = 0;
  starpu_interface_start_driver_copy_async(src_node, dst_node, &start);
  if (bytes < kPeerKernelMinBytes)
    TDC_CUDA_CHECK(cudaMemcpyPeerAsync(to, dst_dev, from, src_dev, bytes, stream));
  else if (peer_copy_mode() == PeerCopy::push && src_dev < kMaxDevices && dst_dev < kMaxDevices)
    push_copy(to, dst_dev, from, src_dev, bytes, stream);
  else
    peer_copy_kernel(to, from, bytes, stream);
  starpu_interface_end_driver_copy_async(src_node, dst_node, start);
  starpu_interface_data_copy(src_node, dst_node, bytes);  // bus statistics and traces
  return -EAGAIN;
}

starpu_data_interface_ops* peer_copied_ops() {
  static starpu_data_copy_methods methods = [] {
    starpu_data_copy_methods m = *starpu_interface_vector_ops.copy_methods;  // any_to_any for the rest
    m.cuda_to_cuda_async = cuda_to_cuda_async;
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
  if (peer_copy_mode() != PeerCopy::engine) {
    starpu_vector_interface v{};
    v.id = STARPU_VECTOR_INTERFACE_ID;
    v.nx = uint32_t(doubles);
    v.elemsize = sizeof(double);
    v.allocsize = doubles * sizeof(double);
    starpu_data_register(h, -1, &v, peer_copied_ops());
    return;
  }
#endif
  starpu_vector_data_register(h, -1, 0, doubles, sizeof(double));
}

}  // namespace tdc
