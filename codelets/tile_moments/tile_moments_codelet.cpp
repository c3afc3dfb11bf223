#include "../common/codelet.hpp"
#include "tile_moments.hpp"

namespace tdc {
namespace {

const double* block(void* b[], int n) { return reinterpret_cast<const double*>(STARPU_BLOCK_GET_PTR(b[n])); }
double* vec(void* b[], int n) { return reinterpret_cast<double*>(STARPU_VECTOR_GET_PTR(b[n])); }

void moments_cpu(void* b[], void* arg) {
  TileLayout L;
  starpu_codelet_unpack_args(arg, &L);
  tile_moments_cpu(L, block(b, 0), block(b, 1), vec(b, 3));
}
#if defined(TASKDYCORE_HAVE_CUDA)
void moments_cuda(void* b[], void* arg) {
  TileLayout L;
  starpu_codelet_unpack_args(arg, &L);
  tile_moments_cuda(L, block(b, 0), block(b, 1), vec(b, 2), vec(b, 3), starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t moments_cuda = nullptr;
#endif

Codelet& codelet() {
  static Codelet cl("tile_moments", {STARPU_R, STARPU_R, STARPU_SCRATCH, STARPU_W}, moments_cpu, moments_cuda);
  return cl;
}

}  // namespace

std::size_t tile_moments_scratch_bytes(const TileLayout& L) {
  return std::size_t(moment_groups(L)) * kMomentsDoubles * sizeof(double);
}

void insert_tile_moments(const TileLayout& L, starpu_data_handle_t psi, starpu_data_handle_t g,
                         starpu_data_handle_t scratch, starpu_data_handle_t out, int priority) {
  insert_task(codelet(), STARPU_VALUE, &L, sizeof(L), STARPU_R, psi, STARPU_R, g, STARPU_SCRATCH, scratch,
              STARPU_W, out, STARPU_PRIORITY, priority, STARPU_NAME, "tile_moments");
}

}  // namespace tdc
