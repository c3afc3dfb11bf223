#include "halo_unpack.hpp"

#include "../common/codelet.hpp"

namespace tdc {

namespace {

struct Buffers {
  double* field;
  const double* own[4];
  const double* nb[kNeighbourSlots];
};
Buffers buffers_of(void* b[]) {
  Buffers x;
  x.field = reinterpret_cast<double*>(STARPU_BLOCK_GET_PTR(b[0]));
  for (int s = 0; s < 4; ++s) x.own[s] = reinterpret_cast<const double*>(STARPU_VECTOR_GET_PTR(b[1 + s]));
  for (int n = 0; n < kNeighbourSlots; ++n)
    x.nb[n] = reinterpret_cast<const double*>(STARPU_VECTOR_GET_PTR(b[5 + n]));
  return x;
}

void unpack_cpu(void* b[], void* arg) {
  TileLayout L;
  starpu_codelet_unpack_args(arg, &L);
  Buffers x = buffers_of(b);
  strided_copies_cpu(halo_unpack_plan(L, x.field, x.own, x.nb));
}

#if defined(TASKDYCORE_HAVE_CUDA)
void unpack_cuda(void* b[], void* arg) {
  TileLayout L;
  starpu_codelet_unpack_args(arg, &L);
  Buffers x = buffers_of(b);
  strided_copies_cuda(halo_unpack_plan(L, x.field, x.own, x.nb), starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t unpack_cuda = nullptr;
#endif

Codelet& codelet() {
  static Codelet cl("halo_unpack",
                    {STARPU_RW, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_R,
                     STARPU_R, STARPU_R, STARPU_R, STARPU_R},
                    unpack_cpu, unpack_cuda);
  return cl;
}

}  // namespace

void insert_halo_unpack(const TileLayout& L, starpu_data_handle_t field, const starpu_data_handle_t own[4],
                        const starpu_data_handle_t nb[kNeighbourSlots]) {
  insert_task(codelet(), STARPU_VALUE, &L, sizeof(L), STARPU_RW, field, STARPU_R, own[0], STARPU_R, own[1],
              STARPU_R, own[2], STARPU_R, own[3], STARPU_R, nb[0], STARPU_R, nb[1], STARPU_R, nb[2], STARPU_R,
              nb[3], STARPU_R, nb[4], STARPU_R, nb[5], STARPU_R, nb[6], STARPU_R, nb[7], STARPU_PRIORITY,
              kPrioHalo, STARPU_NAME, "halo_unpack");
}

}  // namespace tdc
