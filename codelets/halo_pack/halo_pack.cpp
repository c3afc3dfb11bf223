#include "halo_pack.hpp"

#include "../common/codelet.hpp"

namespace tdc {

namespace {

struct Buffers {
  const double* field;
  double* strips[4];
};
Buffers buffers_of(void* b[]) {
  Buffers x;
  x.field = reinterpret_cast<const double*>(STARPU_BLOCK_GET_PTR(b[0]));
  for (int s = 0; s < 4; ++s) x.strips[s] = reinterpret_cast<double*>(STARPU_VECTOR_GET_PTR(b[1 + s]));
  return x;
}

void pack_cpu(void* b[], void* arg) {
  TileLayout L;
  starpu_codelet_unpack_args(arg, &L);
  Buffers x = buffers_of(b);
  strided_copies_cpu(halo_pack_plan(L, x.field, x.strips));
}

#if defined(TASKDYCORE_HAVE_CUDA)
void pack_cuda(void* b[], void* arg) {
  TileLayout L;
  starpu_codelet_unpack_args(arg, &L);
  Buffers x = buffers_of(b);
  strided_copies_cuda(halo_pack_plan(L, x.field, x.strips), starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t pack_cuda = nullptr;
#endif

Codelet& codelet() {
  static Codelet cl("halo_pack", {STARPU_R, STARPU_W, STARPU_W, STARPU_W, STARPU_W}, pack_cpu, pack_cuda);
  return cl;
}

}  // namespace

void insert_halo_pack(const TileLayout& L, starpu_data_handle_t field, const starpu_data_handle_t strips[4]) {
  insert_task(codelet(), STARPU_VALUE, &L, sizeof(L), STARPU_R, field, STARPU_W, strips[0], STARPU_W, strips[1],
              STARPU_W, strips[2], STARPU_W, strips[3], STARPU_PRIORITY, kPrioHalo, STARPU_NAME, "halo_pack");
}

}  // namespace tdc
