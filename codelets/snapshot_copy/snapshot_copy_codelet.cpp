#include "snapshot_copy.hpp"

#include "../common/codelet.hpp"

namespace tdc {
namespace {

// Tiles (blocks, ghost ring included) or small vectors (the solver state): both interfaces start with
// their id, so it tells which one a buffer is.
bool is_vector(void* b) { return *static_cast<const starpu_data_interface_id*>(b) == STARPU_VECTOR_INTERFACE_ID; }
std::size_t count(void* b) {
  if (is_vector(b)) return STARPU_VECTOR_GET_NX(b);
  return std::size_t(STARPU_BLOCK_GET_NX(b)) * STARPU_BLOCK_GET_NY(b) * STARPU_BLOCK_GET_NZ(b);
}
double* ptr_of(void* b) {
  return reinterpret_cast<double*>(is_vector(b) ? STARPU_VECTOR_GET_PTR(b) : STARPU_BLOCK_GET_PTR(b));
}

struct SnapshotCopy : CodeletSpec<NoArgs, STARPU_R, STARPU_W> {  // source, destination
  static constexpr const char* name = "snapshot_copy";
  static void cpu(NoArgs, Buffers b) { snapshot_copy_cpu(count(b.raw(0)), ptr_of(b.raw(0)), ptr_of(b.raw(1))); }
  static constexpr auto cuda = [](NoArgs, Buffers b, auto s) {
    snapshot_copy_cuda(count(b.raw(0)), ptr_of(b.raw(0)), ptr_of(b.raw(1)), s);
  };
};

}  // namespace

void insert_snapshot_copy(starpu_data_handle_t src, starpu_data_handle_t dst, int priority) {
  CodeletOf<SnapshotCopy>::insert({}, {src, dst}, {priority});
}

}  // namespace tdc
