#include "halo_self.hpp"

#include "../common/codelet.hpp"

namespace tdc {
namespace {

double* field_of(void* b[]) { return reinterpret_cast<double*>(STARPU_BLOCK_GET_PTR(b[0])); }

void self_cpu(void* b[], void* arg) {
  TileLayout L;
  starpu_codelet_unpack_args(arg, &L);
  strided_copies_cpu(halo_self_plan(L, field_of(b)));
}

#if defined(TASKDYCORE_HAVE_CUDA)
void self_cuda(void* b[], void* arg) {
  TileLayout L;
  starpu_codelet_unpack_args(arg, &L);
  strided_copies_cuda(halo_self_plan(L, field_of(b)), starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t self_cuda = nullptr;
#endif

Codelet& codelet() {
  static Codelet cl("halo_self", {STARPU_RW}, self_cpu, self_cuda);
  return cl;
}

}  // namespace

void insert_halo_self(const TileLayout& L, starpu_data_handle_t field) {
  insert_task(codelet(), STARPU_VALUE, &L, sizeof(L), STARPU_RW, field, STARPU_PRIORITY, kPrioHalo, STARPU_NAME,
              "halo_self");
}

}  // namespace tdc
