#include "../common/buffers.hpp"
#include "../common/codelet.hpp"
#include "dot_partial.hpp"

namespace tdc {
namespace {

struct Args {
  TileLayout L;
  int skip_from;
};

void dot_cpu(void* b[], void* arg) {
  Args a;
  starpu_codelet_unpack_args(arg, &a);
  dot_partial_cpu(a.L, vector_ptr(b, 0), a.skip_from, block_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3),
                  vector_ptr(b, 5));
}
#if defined(TASKDYCORE_HAVE_CUDA)
void dot_cuda(void* b[], void* arg) {
  Args a;
  starpu_codelet_unpack_args(arg, &a);
  dot_partial_cuda(a.L, vector_ptr(b, 0), a.skip_from, block_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3),
                   vector_ptr(b, 4), vector_ptr(b, 5), starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t dot_cuda = nullptr;
#endif

Codelet& codelet() {
  static Codelet cl("dot_partial", {STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_SCRATCH, STARPU_W}, dot_cpu,
                    dot_cuda);
  return cl;
}

}  // namespace

void insert_dot_partial(const TileLayout& L, int skip_from, starpu_data_handle_t state, starpu_data_handle_t x,
                        starpu_data_handle_t y, starpu_data_handle_t z, starpu_data_handle_t scratch,
                        starpu_data_handle_t out, int priority) {
  const Args a{L, skip_from};
  insert_task(codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_R, state, STARPU_R, x, STARPU_R, y, STARPU_R, z,
              STARPU_SCRATCH, scratch, STARPU_W, out, STARPU_PRIORITY, priority, STARPU_NAME, "dot_partial");
}

}  // namespace tdc
