#include "mpdata_step.hpp"

#include "../common/codelet.hpp"

namespace tdc {
namespace {

// Buffers shared by the three codelets: psi0, c1, c2, c3, g, scratch, then the outputs.
mpdata::StepInputs inputs_of(void* b[]) {
  auto block = [&](int n) { return reinterpret_cast<const double*>(STARPU_BLOCK_GET_PTR(b[n])); };
  return {block(0), block(1), block(2), block(3), block(4)};
}
double* scratch_of(void* b[]) { return reinterpret_cast<double*>(STARPU_VECTOR_GET_PTR(b[5])); }
double* block_of(void* b[], int n) { return reinterpret_cast<double*>(STARPU_BLOCK_GET_PTR(b[n])); }
struct Strips {
  double* p[4];
};
Strips strips_of(void* b[], int first) {
  Strips s;
  for (int n = 0; n < 4; ++n) s.p[n] = reinterpret_cast<double*>(STARPU_VECTOR_GET_PTR(b[first + n]));
  return s;
}

MpdataTaskArgs args_of(void* cl_arg) {
  MpdataTaskArgs a;
  starpu_codelet_unpack_args(cl_arg, &a);
  return a;
}

void border_cpu(void* b[], void* arg) {
  mpdata_border_work(args_of(arg), inputs_of(b), scratch_of(b), strips_of(b, 6).p, mpdata::CpuStages{}, CpuCopy{});
}
void body_cpu(void* b[], void* arg) {
  mpdata_body_work(args_of(arg), inputs_of(b), scratch_of(b), block_of(b, 6), mpdata::CpuStages{});
}
void whole_cpu(void* b[], void* arg) {
  mpdata_tile_work(args_of(arg), inputs_of(b), scratch_of(b), block_of(b, 6), strips_of(b, 7).p, mpdata::CpuStages{},
                   CpuCopy{});
}

#if defined(TASKDYCORE_HAVE_CUDA)
void border_cuda(void* b[], void* arg) {
  cudaStream_t s = starpu_cuda_get_local_stream();
  mpdata_border_work(args_of(arg), inputs_of(b), scratch_of(b), strips_of(b, 6).p, mpdata::CudaStages{s}, CudaCopy{s});
}
void body_cuda(void* b[], void* arg) {
  mpdata_body_work(args_of(arg), inputs_of(b), scratch_of(b), block_of(b, 6), mpdata::CudaStages{starpu_cuda_get_local_stream()});
}
void whole_cuda(void* b[], void* arg) {
  cudaStream_t s = starpu_cuda_get_local_stream();
  mpdata_tile_work(args_of(arg), inputs_of(b), scratch_of(b), block_of(b, 6), strips_of(b, 7).p, mpdata::CudaStages{s},
                   CudaCopy{s});
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

std::size_t mpdata_border_scratch_bytes(const MpdataTaskArgs& a) { return mpdata_border_scratch_doubles(a) * sizeof(double); }
std::size_t mpdata_body_scratch_bytes(const MpdataTaskArgs& a) { return mpdata_body_scratch_doubles(a) * sizeof(double); }

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
