#include "mpdata_step.hpp"

#include "../common/codelet.hpp"

namespace tdc {
namespace {

// Buffers shared by the three codelets: psi0, c1, c2, c3, g, scratch, then the outputs.
mpdata::StepInputs inputs_of(Buffers b) { return {b.block(0), b.block(1), b.block(2), b.block(3), b.block(4)}; }
struct Strips {
  double* p[4];
};
Strips strips_of(Buffers b, int first) {
  return {{b.vector(first), b.vector(first + 1), b.vector(first + 2), b.vector(first + 3)}};
}

mpdata::CpuStages stages_on(const MpdataTaskArgs& a, std::nullptr_t) { return mpdata::cpu_stages(a.options); }
CpuCopy copy_on(std::nullptr_t) { return {}; }
#if defined(TASKDYCORE_HAVE_CUDA)
mpdata::CudaStages stages_on(const MpdataTaskArgs& a, cudaStream_t s) { return mpdata::cuda_stages(a.options, s); }
CudaCopy copy_on(cudaStream_t s) { return {s}; }
#endif

// The three specs' work runs on the CPU (stream nullptr) or on a CUDA stream: one body for both kernels.
template <class Self, class Stream>
void work_of(const MpdataTaskArgs& a, Buffers b, Stream s) {
  Self::work(a, b, s);
}
template <class Self, starpu_data_access_mode... Modes>
struct MpdataSpec : CodeletSpec<MpdataTaskArgs, Modes...> {
  static void cpu(const MpdataTaskArgs& a, Buffers b) { work_of<Self>(a, b, nullptr); }
  static constexpr auto cuda = [](const MpdataTaskArgs& a, Buffers b, auto s) { work_of<Self>(a, b, s); };
};

// inputs, scratch, four strips
struct MpdataBorder : MpdataSpec<MpdataBorder, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_SCRATCH,
                                 STARPU_W, STARPU_W, STARPU_W, STARPU_W> {
  static constexpr const char* name = "mpdata_border";
  static constexpr auto work = [](const Args& a, Buffers b, auto s) {
    mpdata_border_work(a, inputs_of(b), b.vector(5), strips_of(b, 6).p, stages_on(a, s), copy_on(s));
  };
};
// inputs, scratch, psi_new
struct MpdataBody : MpdataSpec<MpdataBody, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_SCRATCH, STARPU_W> {
  static constexpr const char* name = "mpdata_body";
  static constexpr auto work = [](const Args& a, Buffers b, auto s) {
    mpdata_body_work(a, inputs_of(b), b.vector(5), b.block(6), stages_on(a, s));
  };
};
// inputs, scratch, psi_new, four strips
struct MpdataTile : MpdataSpec<MpdataTile, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_SCRATCH, STARPU_W,
                               STARPU_W, STARPU_W, STARPU_W, STARPU_W> {
  static constexpr const char* name = "mpdata_tile";
  static constexpr auto work = [](const Args& a, Buffers b, auto s) {
    mpdata_tile_work(a, inputs_of(b), b.vector(5), b.block(6), strips_of(b, 7).p, stages_on(a, s), copy_on(s));
  };
};

}  // namespace

std::size_t mpdata_border_scratch_bytes(const MpdataTaskArgs& a) {
  return mpdata_border_scratch_doubles(a) * sizeof(double);
}
std::size_t mpdata_body_scratch_bytes(const MpdataTaskArgs& a) {
  return mpdata_body_scratch_doubles(a) * sizeof(double);
}

void insert_mpdata_border(const MpdataTaskArgs& a, const MpdataTileHandles& in, starpu_data_handle_t scratch,
                          const starpu_data_handle_t strips[4], const SendAhead* send_ahead) {
  TaskOptions o;
  o.priority = kPrioHalo;
  o.send_ahead = send_ahead;
  CodeletOf<MpdataBorder>::insert(
      a, {in.psi0, in.c1, in.c2, in.c3, in.g, scratch, strips[0], strips[1], strips[2], strips[3]}, o);
}

void insert_mpdata_body(const MpdataTaskArgs& a, const MpdataTileHandles& in, starpu_data_handle_t scratch,
                        starpu_data_handle_t psi_new) {
  CodeletOf<MpdataBody>::insert(a, {in.psi0, in.c1, in.c2, in.c3, in.g, scratch, psi_new}, {kPrioBody});
}

void insert_mpdata_tile(const MpdataTaskArgs& a, const MpdataTileHandles& in, starpu_data_handle_t scratch,
                        starpu_data_handle_t psi_new, const starpu_data_handle_t strips[4],
                        const SendAhead* send_ahead) {
  TaskOptions o;
  o.priority = kPrioHalo;
  o.send_ahead = send_ahead;
  CodeletOf<MpdataTile>::insert(
      a, {in.psi0, in.c1, in.c2, in.c3, in.g, scratch, psi_new, strips[0], strips[1], strips[2], strips[3]}, o);
}

}  // namespace tdc
