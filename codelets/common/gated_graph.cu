#include <atomic>
#include <unordered_map>

#include "cuda_check.hpp"
#include "gated_graph.hpp"

namespace tdc {
namespace {

__global__ void open_gate(cudaGraphConditionalHandle gate, const double* done, double skip_from) {
  cudaGraphSetConditional(gate, *done < skip_from ? 1u : 0u);
}

// A graph: a one-thread kernel `open` (args: its parameters; the first is the handle it sets), then a
// conditional node of `type` on that handle around body's captured launches, then tail's, if any.
cudaGraphExec_t record_conditional(cudaGraph_t graph, cudaGraphConditionalHandle handle,
                                   cudaGraphConditionalNodeType type, void* open, void** args,
                                   const std::function<void(cudaStream_t)>& body,
                                   const std::function<void(cudaStream_t)>& tail) {
  cudaGraphNodeParams open_params{};
  open_params.type = cudaGraphNodeTypeKernel;
  open_params.kernel.func = open;
  open_params.kernel.gridDim = dim3(1);
  open_params.kernel.blockDim = dim3(1);
  open_params.kernel.kernelParams = args;
  cudaGraphNode_t open_node, body_node;
  TDC_CUDA_CHECK(cudaGraphAddNode(&open_node, graph, nullptr, nullptr, 0, &open_params));
  cudaGraphNodeParams body_params{};
  body_params.type = cudaGraphNodeTypeConditional;
  body_params.conditional.handle = handle;
  body_params.conditional.type = type;
  body_params.conditional.size = 1;
  TDC_CUDA_CHECK(cudaGraphAddNode(&body_node, graph, &open_node, nullptr, 1, &body_params));
  cudaStream_t capture;
  TDC_CUDA_CHECK(cudaStreamCreateWithFlags(&capture, cudaStreamNonBlocking));
  TDC_CUDA_CHECK(cudaStreamBeginCaptureToGraph(capture, body_params.conditional.phGraph_out[0], nullptr, nullptr, 0,
                                               cudaStreamCaptureModeThreadLocal));
  body(capture);
  cudaGraph_t captured;
  TDC_CUDA_CHECK(cudaStreamEndCapture(capture, &captured));
  if (tail) {  // after the conditional node, in the outer graph
    TDC_CUDA_CHECK(
        cudaStreamBeginCaptureToGraph(capture, graph, &body_node, nullptr, 1, cudaStreamCaptureModeThreadLocal));
    tail(capture);
    TDC_CUDA_CHECK(cudaStreamEndCapture(capture, &captured));
  }
  TDC_CUDA_CHECK(cudaStreamDestroy(capture));
  cudaGraphExec_t exec;
  TDC_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  TDC_CUDA_CHECK(cudaGraphDestroy(graph));
  return exec;
}

cudaGraphExec_t record_gated(const double* done, double skip_from, const std::function<void(cudaStream_t)>& record) {
  cudaGraph_t graph;
  TDC_CUDA_CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle gate;
  TDC_CUDA_CHECK(cudaGraphConditionalHandleCreate(&gate, graph, 0, cudaGraphCondAssignDefault));
  void* args[] = {&gate, &done, &skip_from};
  return record_conditional(graph, gate, cudaGraphCondTypeIf, reinterpret_cast<void*>(open_gate), args, record,
                            nullptr);
}

// The launch's round count, set on the stream before the graph (the graph is the same for any count).
__global__ void set_rounds(int* rounds_left, int rounds) { *rounds_left = rounds; }

__global__ void open_loop(cudaGraphConditionalHandle loop, const int* rounds_left, const double* done,
                          double skip_from) {
  cudaGraphSetConditional(loop, *rounds_left > 0 && *done < skip_from ? 1u : 0u);
}

// open_loop, then a while node around the captured round, then the tail; rounds_left is device memory
// of the caller's, set before each launch.
cudaGraphExec_t record_loop(int* rounds_left, const double* done, double skip_from,
                            const std::function<void(cudaStream_t, const DeviceLoop&)>& record,
                            const std::function<void(cudaStream_t)>& tail) {
  cudaGraph_t graph;
  TDC_CUDA_CHECK(cudaGraphCreate(&graph, 0));
  DeviceLoop loop;
  TDC_CUDA_CHECK(cudaGraphConditionalHandleCreate(&loop.handle, graph, 0, cudaGraphCondAssignDefault));
  loop.rounds_left = rounds_left;
  loop.done = done;
  loop.skip_from = skip_from;
  void* args[] = {&loop.handle, &rounds_left, &done, &skip_from};
  return record_conditional(
      graph, loop.handle, cudaGraphCondTypeWhile, reinterpret_cast<void*>(open_loop), args,
      [&](cudaStream_t capture) { record(capture, loop); }, tail);
}

// A worker's graphs, kept for the run (the keys are the solver's arrays, a few per tile); the bound
// only guards against buffers that keep moving. A loop's graph owns its round counter.
struct GatedGraphs {
  static constexpr std::size_t kMost = 4096;
  struct Entry {
    cudaGraphExec_t exec = nullptr;
    int* counter = nullptr;
  };
  std::unordered_map<std::string, Entry> exec;
  void clear() {
    for (auto& e : exec) {  // (at thread exit the context may be gone: unchecked)
      cudaGraphExecDestroy(e.second.exec);
      if (e.second.counter) cudaFree(e.second.counter);
    }
    exec.clear();
  }
  ~GatedGraphs() { clear(); }
};
thread_local GatedGraphs graphs;

std::atomic<bool> g_gates_on{true};
bool gates_on() { return g_gates_on.load(std::memory_order_relaxed); }

// This worker's graph for `key` on the current device, recorded by make() the first time.
GatedGraphs::Entry& cached(const std::string& key, const std::function<GatedGraphs::Entry()>& make) {
  int device = 0;
  TDC_CUDA_CHECK(cudaGetDevice(&device));
  const std::string full = key + gate_key(device);
  auto it = graphs.exec.find(full);
  if (it == graphs.exec.end()) {
    if (graphs.exec.size() >= GatedGraphs::kMost) graphs.clear();
    it = graphs.exec.emplace(full, make()).first;
  }
  return it->second;
}

}  // namespace

void set_gated_graphs(bool on) { g_gates_on.store(on, std::memory_order_relaxed); }

void launch_gated(const std::string& key, const double* done, double skip_from, cudaStream_t stream,
                  const std::function<void(cudaStream_t)>& record) {
  if (!gates_on()) {
    record(stream);
    return;
  }
  const GatedGraphs::Entry& graph = cached(key + gate_key(done, skip_from), [&] {
    return GatedGraphs::Entry{record_gated(done, skip_from, record), nullptr};
  });
  TDC_CUDA_CHECK(cudaGraphLaunch(graph.exec, stream));
}

void launch_gated_loop(const std::string& key, const double* done, double skip_from, int rounds, cudaStream_t stream,
                       const std::function<void(cudaStream_t, const DeviceLoop&)>& record,
                       const std::function<void(cudaStream_t)>& tail) {
  if (!gates_on()) {  // the rounds launched one by one (each kernel still tests the state)
    const DeviceLoop direct;
    for (int n = 0; n < rounds; ++n) record(stream, direct);
    if (tail) tail(stream);
    return;
  }
  const GatedGraphs::Entry& graph = cached(key + gate_key(done, skip_from, 'L'), [&] {
    int* counter = nullptr;
    TDC_CUDA_CHECK(cudaMalloc(&counter, sizeof(int)));
    return GatedGraphs::Entry{record_loop(counter, done, skip_from, record, tail), counter};
  });
  set_rounds<<<1, 1, 0, stream>>>(graph.counter, rounds);
  TDC_CUDA_CHECK(cudaGetLastError());
  TDC_CUDA_CHECK(cudaGraphLaunch(graph.exec, stream));
}

}  // namespace tdc
