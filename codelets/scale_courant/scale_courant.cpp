#include "scale_courant.hpp"

#include "../common/codelet.hpp"

namespace tdc {

namespace {

std::size_t count(void* b) {
  return std::size_t(STARPU_BLOCK_GET_NX(b)) * STARPU_BLOCK_GET_NY(b) * STARPU_BLOCK_GET_NZ(b);
}
const double* in(void* b[], int n) { return reinterpret_cast<const double*>(STARPU_BLOCK_GET_PTR(b[n])); }
double* out(void* b[], int n) { return reinterpret_cast<double*>(STARPU_BLOCK_GET_PTR(b[n])); }

void scale_courant_cpu(void* b[], void* arg) {
  double factor;
  starpu_codelet_unpack_args(arg, &factor);
  for (int d = 0; d < 3; ++d) scale_cpu(count(b[d]), factor, in(b, d), out(b, 3 + d));
}
#if defined(TASKDYCORE_HAVE_CUDA)
void scale_courant_cuda(void* b[], void* arg) {
  double factor;
  starpu_codelet_unpack_args(arg, &factor);
  for (int d = 0; d < 3; ++d) scale_cuda(count(b[d]), factor, in(b, d), out(b, 3 + d), starpu_cuda_get_local_stream());
}
#else
constexpr starpu_cuda_func_t scale_courant_cuda = nullptr;
#endif

Codelet& codelet() {
  static Codelet cl("scale_courant", {STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_W, STARPU_W},
                    scale_courant_cpu, scale_courant_cuda);
  return cl;
}

}  // namespace

void insert_scale_courant(double factor, const starpu_data_handle_t s[3], const starpu_data_handle_t c[3]) {
  insert_task(codelet(), STARPU_VALUE, &factor, sizeof(factor), STARPU_R, s[0], STARPU_R, s[1], STARPU_R, s[2],
              STARPU_W, c[0], STARPU_W, c[1], STARPU_W, c[2], STARPU_PRIORITY, kPrioHalo, STARPU_NAME,
              "scale_courant");
}

}  // namespace tdc
