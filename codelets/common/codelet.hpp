// The StarPU side of a codelet: one typed definition per operation, from which a template makes the
// rest. A codelet file (`<op>_codelet.cpp`, beside the op's kernels) holds a spec per codelet and the
// insert functions the graphs call:
//
//   struct Buoyancy : CodeletSpec<BuoyancyArgs, STARPU_R, STARPU_RW> {  // the task's value; theta, w
//     static constexpr const char* name = "buoyancy";  // codelet, perf model and task name
//     static void cpu(const Args& a, Buffers b) { buoyancy_cpu(a, b.block(0), b.block(1)); }
//     static constexpr auto cuda = [](const Args& a, Buffers b, auto s) { buoyancy_cuda(a, b.block(0), b.block(1), s); };
//   };
//   void insert_buoyancy(const BuoyancyArgs& a, starpu_data_handle_t theta, starpu_data_handle_t w, int priority) {
//     CodeletOf<Buoyancy>::insert(a, {theta, w}, {priority});
//   }
//
// - Modes and buffer order are written once, in the spec; insert takes the handles in that order and
//   checks their count. Args is a trivially copyable struct, copied into the task (STARPU_VALUE);
//   NoArgs: none.
// - Kernel convention: a function `cpu(const Args&, Buffers)`, and a generic lambda `cuda(const Args&,
//   Buffers, auto stream)`, asynchronous on the worker's stream. The CUDA kernel is generic so that it
//   is compiled only where CUDA is (no #if per codelet); a spec without `cuda` is CPU-only.
// - CodeletOf<Spec> makes the CPU and CUDA wrappers, the starpu_codelet with its history-based perf
//   model (dmda/dmdas learn each kernel's cost per worker kind) and GPU-first placement, and insert.
// - Variants of one kernel with other modes (e.g. with a scalars step folded in that writes the state)
//   derive from its spec and redefine name and modes. A spec with `variable_buffers = true` takes one
//   buffer list per task (STARPU_DATA_MODE_ARRAY, e.g. one partial per tile): insert(args, descrs).
// - Every task, of every codelet, is submitted by submit_task below.
#pragma once
#include <starpu.h>
#include <starpu_mpi.h>

#include <array>
#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "work_skipped.hpp"

namespace tdc {

// Where codelets with a CUDA implementation may run when the node has GPUs: on the GPUs only,
// unless the run lets CPU workers take them too. Measured on an H100 node: 15 CPU cores deliver
// under 1 % of the GPU's MPDATA rate; dmdas placing tiles on them made steps 4-16 % slower, and
// diagnostics placed on them stalled the steps (docs/performance.md). Default: GPUs only.
void set_cpu_tasks_with_gpu(bool allowed);

class SendAhead;

// Priorities: halo work is on the critical path of every neighbour, so it goes first.
constexpr int kPrioHalo = 10;
constexpr int kPrioBody = 0;
constexpr int kPrioDiagnostics = -10;
// Tasks that only bring data to a device (fetch_ahead): their transfer starts when they are pushed,
// their (empty) run can wait until the worker has nothing else.
constexpr int kPrioFetchAhead = -100;

// Modes of a spec that redefines them: access(STARPU_R, STARPU_RW).
template <class... M>
constexpr std::array<starpu_data_access_mode, sizeof...(M)> access(M... m) {
  return {{m...}};
}
// The modes a, then K times mode m (e.g. a basis of K read-only tiles).
template <std::size_t N, std::size_t K>
constexpr std::array<starpu_data_access_mode, N + K> append(const std::array<starpu_data_access_mode, N>& a,
                                                            starpu_data_access_mode m) {
  std::array<starpu_data_access_mode, N + K> r{};
  for (std::size_t i = 0; i < N; ++i) r[i] = a[i];
  for (std::size_t i = N; i < N + K; ++i) r[i] = m;
  return r;
}

// A task's buffers inside a kernel call.
class Buffers {
 public:
  explicit Buffers(void** b) : b_(b) {}
  double* block(int n) const { return reinterpret_cast<double*>(STARPU_BLOCK_GET_PTR(b_[n])); }
  double* vector(int n) const { return reinterpret_cast<double*>(STARPU_VECTOR_GET_PTR(b_[n])); }
  void* raw(int n) const { return b_[n]; }

 private:
  void** b_;
};

struct NoArgs {};

// What every spec derives from: its argument struct and its buffers' access modes, in order.
template <class ArgsT, starpu_data_access_mode... Modes>
struct CodeletSpec {
  using Args = ArgsT;
  static constexpr std::array<starpu_data_access_mode, sizeof...(Modes)> modes{{Modes...}};
  static constexpr bool variable_buffers = false;
};

struct TaskOptions {
  int priority = kPrioBody;
  const char* name = nullptr;  // the task's name; default: the codelet's
  int node = -1;               // the rank that runs it; default: the owner of the data it writes
  // Run where this handle lives (its owner rank, its home GPU) rather than where the task's written
  // (else read) data does.
  starpu_data_handle_t run_with = nullptr;
  // Copies its end starts (send_ahead.hpp); null or empty: none.
  const SendAhead* send_ahead = nullptr;
};

class Codelet {
 public:
  // `cuda` may be null (CPU-only codelet); CUDA functions are asynchronous on the worker's stream.
  Codelet(const char* name, const starpu_data_access_mode* modes, int nbuffers, starpu_cpu_func_t cpu,
          starpu_cuda_func_t cuda);
  // A codelet whose tasks bring their own buffer list (STARPU_DATA_MODE_ARRAY), e.g. one per tile.
  struct VariableBuffers {};
  Codelet(const char* name, VariableBuffers, starpu_cpu_func_t cpu, starpu_cuda_func_t cuda);
  Codelet(const Codelet&) = delete;
  Codelet& operator=(const Codelet&) = delete;
  starpu_codelet* get() { return &codelet_; }
  const char* name() const { return codelet_.name; }

 private:
  void init(const char* name, starpu_cpu_func_t cpu, starpu_cuda_func_t cuda);
  starpu_perfmodel model_{};
  starpu_codelet codelet_{};
};

// The one way tasks are submitted: through starpu_mpi_task_insert, also with one rank, so that
// multi-rank runs need no second code path; the buffers as one array with their modes, the value
// (arg, or none when arg_size is 0), the priority and the name; placed on the worker home_worker
// names (tile_placement.hpp). A failed submission is an error, not a silent skip.
void submit_task(Codelet& cl, const void* arg, std::size_t arg_size, const starpu_data_descr* buffers, int n,
                 const TaskOptions& options);

namespace detail {

template <class Spec, class = void>
struct HasCuda : std::false_type {};
template <class Spec>
struct HasCuda<Spec, std::void_t<decltype(&Spec::cuda)>> : std::true_type {};

template <class Args>
Args unpack(void* cl_arg) {
  Args a{};
  if constexpr (!std::is_same<Args, NoArgs>::value) starpu_codelet_unpack_args(cl_arg, &a);
  return a;
}

}  // namespace detail

// The codelet of a spec: its wrappers, its one starpu_codelet, and its typed insert.
template <class Spec>
class CodeletOf {
 public:
  using Args = typename Spec::Args;
  static_assert(std::is_trivially_copyable<Args>::value, "a task's value is copied bytewise");

  static Codelet& codelet() {
    static Codelet cl = make();
    return cl;
  }

  // Fixed buffers: the handles in the order of Spec::modes (also as a list built at run time).
  static void insert(const Args& a, std::initializer_list<starpu_data_handle_t> handles, TaskOptions o = {}) {
    insert_fixed(a, handles.begin(), handles.size(), o);
  }
  static void insert(const Args& a, const std::vector<starpu_data_handle_t>& handles, TaskOptions o = {}) {
    insert_fixed(a, handles.data(), handles.size(), o);
  }
  // Variable buffers: the task's own list of handles with their modes.
  static void insert(const Args& a, const std::vector<starpu_data_descr>& buffers, TaskOptions o = {}) {
    static_assert(Spec::variable_buffers, "a fixed-buffer codelet takes its modes from the spec");
    submit(a, buffers.data(), int(buffers.size()), o);
  }

 private:
  static void insert_fixed(const Args& a, const starpu_data_handle_t* h, std::size_t n, const TaskOptions& o) {
    static_assert(!Spec::variable_buffers, "a variable-buffer codelet takes descriptors");
    if (n != Spec::modes.size())
      throw std::logic_error(std::string("codelet ") + Spec::name + ": wrong number of buffers");
    std::array<starpu_data_descr, Spec::modes.size()> d;
    for (std::size_t i = 0; i < n; ++i) d[i] = starpu_data_descr{h[i], Spec::modes[i]};
    submit(a, d.data(), int(n), o);
  }
  static void submit(const Args& a, const starpu_data_descr* d, int n, const TaskOptions& o) {
    const bool none = std::is_same<Args, NoArgs>::value;
    submit_task(codelet(), none ? nullptr : &a, none ? 0 : sizeof(a), d, n, o);
  }
  static void cpu(void* b[], void* arg) {
    work_skipped() = false;
    Spec::cpu(detail::unpack<Args>(arg), Buffers(b));
    if (work_skipped()) starpu_task_get_current()->failed = 1;  // StarPU then records no timing
  }
  static starpu_cuda_func_t cuda_func() {
#if defined(TASKDYCORE_HAVE_CUDA)
    if constexpr (detail::HasCuda<Spec>::value)
      return [](void* b[], void* arg) {
        Spec::cuda(detail::unpack<Args>(arg), Buffers(b), starpu_cuda_get_local_stream());
      };
#endif
    return nullptr;
  }
  static Codelet make() {
    if constexpr (Spec::variable_buffers)
      return Codelet(Spec::name, Codelet::VariableBuffers{}, cpu, cuda_func());
    else
      return Codelet(Spec::name, Spec::modes.data(), int(Spec::modes.size()), cpu, cuda_func());
  }
};

}  // namespace tdc
