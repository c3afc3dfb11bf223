#include "mpdata_step.hpp"

#include "../common/codelet.hpp"
#include "../halo_pack/halo_pack.hpp"

namespace tdc {
namespace {

// Buffers shared by the three codelets: psi0, c1, c2, c3, g, scratch, then the outputs.
struct Inputs {
  mpdata::StepInputs in;
  double* scratch;
};
Inputs inputs_of(void* b[]) {
  auto block = [&](int n) { return reinterpret_cast<const double*>(STARPU_BLOCK_GET_PTR(b[n])); };
  return {{block(0), block(1), block(2), block(3), block(4)},
          reinterpret_cast<double*>(STARPU_VECTOR_GET_PTR(b[5]))};
}
void strips_of(void* b[], int first, double* strips[4]) {
  for (int s = 0; s < 4; ++s) strips[s] = reinterpret_cast<double*>(STARPU_VECTOR_GET_PTR(b[first + s]));
}

// The bodies are written once for both kinds of worker; Stages picks the kernels, Copy the strip copy.
template <class Stages, class Copy>
void border(const MpdataTaskArgs& a, void* b[], const Stages& stages, const Copy& copy) {
  const Inputs x = inputs_of(b);
  const mpdata::Cells cells{a.layout, a.options.zb};
  const mpdata::Scratch t = mpdata::carve_scratch(a.options, a.layout, x.scratch);
  double* out = x.scratch + mpdata::scratch_plan(a.options).arrays() * a.layout.size();
  Box bands[4];
  const int n = mpdata::border_regions(a.layout, bands);
  for (int r = 0; r < n; ++r) mpdata::advance_region(stages, cells, a.options, bands[r], x.in, t, out);
  double* strips[4];
  strips_of(b, 6, strips);
  copy(halo_pack_plan(a.layout, out, strips));
}

template <class Stages>
void body(const MpdataTaskArgs& a, void* b[], const Stages& stages) {
  const Inputs x = inputs_of(b);
  const mpdata::Scratch t = mpdata::carve_scratch(a.options, a.layout, x.scratch);
  double* psi_new = reinterpret_cast<double*>(STARPU_BLOCK_GET_PTR(b[6]));
  mpdata::advance_region(stages, mpdata::Cells{a.layout, a.options.zb}, a.options, mpdata::body_region(a.layout),
                         x.in, t, psi_new);
}

template <class Stages, class Copy>
void whole(const MpdataTaskArgs& a, void* b[], const Stages& stages, const Copy& copy) {
  const Inputs x = inputs_of(b);
  const mpdata::Scratch t = mpdata::carve_scratch(a.options, a.layout, x.scratch);
  double* psi_new = reinterpret_cast<double*>(STARPU_BLOCK_GET_PTR(b[6]));
  const Box all{0, a.layout.nx, 0, a.layout.ny};
  mpdata::advance_region(stages, mpdata::Cells{a.layout, a.options.zb}, a.options, all, x.in, t, psi_new);
  double* strips[4];
  strips_of(b, 7, strips);
  copy(halo_pack_plan(a.layout, psi_new, strips));
}

MpdataTaskArgs args_of(void* cl_arg) {
  MpdataTaskArgs a;
  starpu_codelet_unpack_args(cl_arg, &a);
  return a;
}

const auto cpu_copy = [](const CopyList& l) { strided_copies_cpu(l); };
void border_cpu(void* b[], void* arg) { border(args_of(arg), b, mpdata::CpuStages{}, cpu_copy); }
void body_cpu(void* b[], void* arg) { body(args_of(arg), b, mpdata::CpuStages{}); }
void whole_cpu(void* b[], void* arg) { whole(args_of(arg), b, mpdata::CpuStages{}, cpu_copy); }

#if defined(TASKDYCORE_HAVE_CUDA)
struct CudaCopy {
  cudaStream_t stream;
  void operator()(const CopyList& l) const { strided_copies_cuda(l, stream); }
};
void border_cuda(void* b[], void* arg) {
  cudaStream_t s = starpu_cuda_get_local_stream();
  border(args_of(arg), b, mpdata::CudaStages{s}, CudaCopy{s});
}
void body_cuda(void* b[], void* arg) { body(args_of(arg), b, mpdata::CudaStages{starpu_cuda_get_local_stream()}); }
void whole_cuda(void* b[], void* arg) {
  cudaStream_t s = starpu_cuda_get_local_stream();
  whole(args_of(arg), b, mpdata::CudaStages{s}, CudaCopy{s});
}
#else
constexpr starpu_cuda_func_t border_cuda = nullptr, body_cuda = nullptr, whole_cuda = nullptr;
#endif

const starpu_data_access_mode R = STARPU_R, W = STARPU_W, S = STARPU_SCRATCH;
Codelet& border_codelet() {
  static Codelet cl("mpdata_border", {R, R, R, R, R, S, W, W, W, W}, border_cpu, border_cuda);
  return cl;
}
Codelet& body_codelet() {
  static Codelet cl("mpdata_body", {R, R, R, R, R, S, W}, body_cpu, body_cuda);
  return cl;
}
Codelet& whole_codelet() {
  static Codelet cl("mpdata_tile", {R, R, R, R, R, S, W, W, W, W, W}, whole_cpu, whole_cuda);
  return cl;
}

}  // namespace

std::size_t mpdata_border_scratch_bytes(const MpdataTaskArgs& a) {
  return (mpdata::scratch_plan(a.options).arrays() + 1) * a.layout.size() * sizeof(double);
}
std::size_t mpdata_body_scratch_bytes(const MpdataTaskArgs& a) {
  return std::max<std::size_t>(1, mpdata::scratch_plan(a.options).arrays()) * a.layout.size() * sizeof(double);
}

void insert_mpdata_border(const MpdataTaskArgs& a, const MpdataTileHandles& in, starpu_data_handle_t scratch,
                          const starpu_data_handle_t strips[4]) {
  insert_task(border_codelet(), STARPU_VALUE, &a, sizeof(a), R, in.psi0, R, in.c1, R, in.c2, R, in.c3, R, in.g,
              S, scratch, W, strips[0], W, strips[1], W, strips[2], W, strips[3], STARPU_PRIORITY, kPrioHalo,
              STARPU_NAME, "mpdata_border");
}

void insert_mpdata_body(const MpdataTaskArgs& a, const MpdataTileHandles& in, starpu_data_handle_t scratch,
                        starpu_data_handle_t psi_new) {
  insert_task(body_codelet(), STARPU_VALUE, &a, sizeof(a), R, in.psi0, R, in.c1, R, in.c2, R, in.c3, R, in.g,
              S, scratch, W, psi_new, STARPU_PRIORITY, kPrioBody, STARPU_NAME, "mpdata_body");
}

void insert_mpdata_tile(const MpdataTaskArgs& a, const MpdataTileHandles& in, starpu_data_handle_t scratch,
                        starpu_data_handle_t psi_new, const starpu_data_handle_t strips[4]) {
  insert_task(whole_codelet(), STARPU_VALUE, &a, sizeof(a), R, in.psi0, R, in.c1, R, in.c2, R, in.c3, R, in.g,
              S, scratch, W, psi_new, W, strips[0], W, strips[1], W, strips[2], W, strips[3], STARPU_PRIORITY,
              kPrioHalo, STARPU_NAME, "mpdata_tile");
}

}  // namespace tdc
