#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include "cuda_check.hpp"
#include "gated_graph.hpp"

namespace tdc {
namespace {

__global__ void open_gate(cudaGraphConditionalHandle gate, const double* done, double skip_from) {
  cudaGraphSetConditional(gate, *done < skip_from ? 1u : 0u);
}

cudaGraphExec_t record_gated(const double* done, double skip_from, const std::function<void(cudaStream_t)>& record) {
  cudaGraph_t graph;
  TDC_CUDA_CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle gate;
  TDC_CUDA_CHECK(cudaGraphConditionalHandleCreate(&gate, graph, 0, cudaGraphCondAssignDefault));
  void* args[] = {&gate, &done, &skip_from};
  cudaGraphNodeParams open{};
  open.type = cudaGraphNodeTypeKernel;
  open.kernel.func = reinterpret_cast<void*>(open_gate);
  open.kernel.gridDim = dim3(1);
  open.kernel.blockDim = dim3(1);
  open.kernel.kernelParams = args;
  cudaGraphNode_t open_node, body_node;
  TDC_CUDA_CHECK(cudaGraphAddNode(&open_node, graph, nullptr, nullptr, 0, &open));
  cudaGraphNodeParams body{};
  body.type = cudaGraphNodeTypeConditional;
  body.conditional.handle = gate;
  body.conditional.type = cudaGraphCondTypeIf;
  body.conditional.size = 1;
  TDC_CUDA_CHECK(cudaGraphAddNode(&body_node, graph, &open_node, nullptr, 1, &body));
  cudaStream_t capture;
  TDC_CUDA_CHECK(cudaStreamCreateWithFlags(&capture, cudaStreamNonBlocking));
  TDC_CUDA_CHECK(cudaStreamBeginCaptureToGraph(capture, body.conditional.phGraph_out[0], nullptr, nullptr, 0,
                                               cudaStreamCaptureModeThreadLocal));
  record(capture);
  cudaGraph_t captured;
  TDC_CUDA_CHECK(cudaStreamEndCapture(capture, &captured));
  TDC_CUDA_CHECK(cudaStreamDestroy(capture));
  cudaGraphExec_t exec;
  TDC_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  TDC_CUDA_CHECK(cudaGraphDestroy(graph));
  return exec;
}

// A worker's graphs, kept for the run (the keys are the solver's arrays, a few per tile); the bound
// only guards against buffers that keep moving.
struct GatedGraphs {
  static constexpr std::size_t kMost = 4096;
  std::unordered_map<std::string, cudaGraphExec_t> exec;
  void clear() {
    for (auto& e : exec) cudaGraphExecDestroy(e.second);  // (at thread exit the context may be gone: unchecked)
    exec.clear();
  }
  ~GatedGraphs() { clear(); }
};

// TASKDYCORE_GATED_GRAPHS=off launches the kernels directly (each still tests the state): profilers
// such as Nsight Compute cannot profile kernels inside graphs that hold conditional nodes.
bool gates_on() {
  static const bool on = [] {
    const char* v = std::getenv("TASKDYCORE_GATED_GRAPHS");
    return !(v && std::strcmp(v, "off") == 0);
  }();
  return on;
}

}  // namespace

void launch_gated(const std::string& key, const double* done, double skip_from, cudaStream_t stream,
                  const std::function<void(cudaStream_t)>& record) {
  if (!gates_on()) {
    record(stream);
    return;
  }
  thread_local GatedGraphs graphs;
  int device = 0;
  TDC_CUDA_CHECK(cudaGetDevice(&device));
  const std::string full = key + gate_key(device, done, skip_from);
  auto it = graphs.exec.find(full);
  if (it == graphs.exec.end()) {
    if (graphs.exec.size() >= GatedGraphs::kMost) graphs.clear();
    it = graphs.exec.emplace(full, record_gated(done, skip_from, record)).first;
  }
  TDC_CUDA_CHECK(cudaGraphLaunch(it->second, stream));
}

}  // namespace tdc
