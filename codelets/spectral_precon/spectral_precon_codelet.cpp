#include "../common/buffers.hpp"
#include "../common/codelet.hpp"
#include "../common/strided_copy.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "spectral_precon.hpp"
#include "spectral_precon_kernel.hpp"

namespace tdc {
namespace {

struct TileArgs {
  SpectralPlan p;
  TileLayout L;
};
struct PreconArgs {
  SpectralPlan p;
  TileLayout L;
  ScalarsArgs then;
};
struct CopyArgs {
  SpectralPlan p;
  TileLayout L;
  int i0, j0;
  bool gather;
};

// The copy between a tile's interior and its box of the dense array (a "strip" of the whole domain).
CopyList tile_copy(const CopyArgs& a, double* tile, double* dense) {
  const StripShape whole{0, 0, a.p.nx, a.p.ny};
  CopyList list;
  list.add(a.gather ? tile_to_strip(a.L, tile, 0, 0, a.L.nx, a.L.ny, dense, whole, a.i0, a.j0)
                    : strip_to_tile(a.L, dense, whole, a.i0, a.j0, tile, 0, 0, a.L.nx, a.L.ny));
  return list;
}

// Buffers: tables, state, r, z.
void solve_cpu(void* b[], void* arg) {
  TileArgs a;
  starpu_codelet_unpack_args(arg, &a);
  spectral_solve_cpu(a.p, vector_ptr(b, 0), vector_ptr(b, 1), tile_view(a.L, block_ptr(b, 2)),
                     tile_view(a.L, block_ptr(b, 3)));
}
// Buffers: tables, state, q, r, z, dot scratch, partials.
void precon_cpu(void* b[], void* arg) {
  PreconArgs a;
  starpu_codelet_unpack_args(arg, &a);
  spectral_pcg_precon_cpu(a.p, a.L, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3),
                          block_ptr(b, 4), vector_ptr(b, 6));
  fold_scalars_cpu(a.then, vector_ptr(b, 1), vector_ptr(b, 6));
}
// Buffers: tables, state, dense.
void solve_dense_cpu(void* b[], void* arg) {
  SpectralPlan p;
  starpu_codelet_unpack_args(arg, &p);
  double* dense = vector_ptr(b, 2);
  spectral_solve_cpu(p, vector_ptr(b, 0), vector_ptr(b, 1), dense_view(p, dense), dense_view(p, dense));
}
// Buffers: state, source, destination (tile -> dense, or dense -> tile).
void copy_cpu(void* b[], void* arg) {
  CopyArgs a;
  starpu_codelet_unpack_args(arg, &a);
  if (solver_skips(vector_ptr(b, 0), a.p.skip_from)) return;
  double* tile = a.gather ? block_ptr(b, 1) : block_ptr(b, 2);
  double* dense = a.gather ? vector_ptr(b, 2) : vector_ptr(b, 1);
  strided_copies_cpu(tile_copy(a, tile, dense));
}
#if defined(TASKDYCORE_HAVE_CUDA)
void solve_cuda(void* b[], void* arg) {
  TileArgs a;
  starpu_codelet_unpack_args(arg, &a);
  spectral_solve_cuda(a.p, vector_ptr(b, 0), vector_ptr(b, 1), tile_view(a.L, block_ptr(b, 2)),
                      tile_view(a.L, block_ptr(b, 3)), starpu_cuda_get_local_stream());
}
void precon_cuda(void* b[], void* arg) {
  PreconArgs a;
  starpu_codelet_unpack_args(arg, &a);
  spectral_pcg_precon_cuda(a.p, a.L, vector_ptr(b, 0), vector_ptr(b, 1), block_ptr(b, 2), block_ptr(b, 3),
                           block_ptr(b, 4), vector_ptr(b, 5), vector_ptr(b, 6), starpu_cuda_get_local_stream());
  fold_scalars_cuda(a.then, vector_ptr(b, 1), vector_ptr(b, 6), starpu_cuda_get_local_stream());
}
void solve_dense_cuda(void* b[], void* arg) {
  SpectralPlan p;
  starpu_codelet_unpack_args(arg, &p);
  double* dense = vector_ptr(b, 2);
  spectral_solve_cuda(p, vector_ptr(b, 0), vector_ptr(b, 1), dense_view(p, dense), dense_view(p, dense),
                      starpu_cuda_get_local_stream());
}
void copy_cuda(void* b[], void* arg) {
  CopyArgs a;
  starpu_codelet_unpack_args(arg, &a);
  double* tile = a.gather ? block_ptr(b, 1) : block_ptr(b, 2);
  double* dense = a.gather ? vector_ptr(b, 2) : vector_ptr(b, 1);
  strided_copies_cuda(tile_copy(a, tile, dense), starpu_cuda_get_local_stream(), vector_ptr(b, 0) + state::kDone,
                      double(a.p.skip_from));
}
#else
constexpr starpu_cuda_func_t solve_cuda = nullptr, precon_cuda = nullptr, solve_dense_cuda = nullptr,
                             copy_cuda = nullptr;
#endif

Codelet& solve_codelet() {
  static Codelet cl("spectral_solve", {STARPU_R, STARPU_R, STARPU_R, STARPU_W}, solve_cpu, solve_cuda);
  return cl;
}
// Reading the state, or (with the scalars step folded in) writing it.
Codelet& precon_codelet(bool writes_state) {
  static Codelet reads("spectral_pcg_precon",
                       {STARPU_R, STARPU_R, STARPU_R, STARPU_RW, STARPU_W, STARPU_SCRATCH, STARPU_W}, precon_cpu,
                       precon_cuda);
  static Codelet writes("spectral_pcg_precon_scalars",
                        {STARPU_R, STARPU_RW, STARPU_R, STARPU_RW, STARPU_W, STARPU_SCRATCH, STARPU_W}, precon_cpu,
                        precon_cuda);
  return writes_state ? writes : reads;
}
Codelet& solve_dense_codelet() {
  static Codelet cl("spectral_solve_dense", {STARPU_R, STARPU_R, STARPU_RW}, solve_dense_cpu, solve_dense_cuda);
  return cl;
}
Codelet& gather_codelet() {
  static Codelet cl("spectral_gather", {STARPU_R, STARPU_R, STARPU_RW}, copy_cpu, copy_cuda);
  return cl;
}
Codelet& scatter_codelet() {
  static Codelet cl("spectral_scatter", {STARPU_R, STARPU_R, STARPU_W}, copy_cpu, copy_cuda);
  return cl;
}

}  // namespace

void insert_spectral_solve(const SpectralPlan& p, const TileLayout& L, starpu_data_handle_t tables,
                           starpu_data_handle_t state, starpu_data_handle_t r, starpu_data_handle_t z, int priority) {
  const TileArgs a{p, L};
  insert_task(solve_codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_R, tables, STARPU_R, state, STARPU_R, r, STARPU_W, z,
              STARPU_PRIORITY, priority, STARPU_NAME, "spectral_solve");
}

void insert_spectral_pcg_precon(const SpectralPlan& p, const TileLayout& L, starpu_data_handle_t tables,
                                starpu_data_handle_t state, starpu_data_handle_t q, starpu_data_handle_t r,
                                starpu_data_handle_t z, starpu_data_handle_t dot_scratch,
                                starpu_data_handle_t partials, int priority, const ScalarsArgs* then) {
  const PreconArgs a{p, L, then ? *then : ScalarsArgs{}};
  Codelet& cl = precon_codelet(then != nullptr);
  insert_task(cl, STARPU_VALUE, &a, sizeof(a), STARPU_R, tables, then ? STARPU_RW : STARPU_R, state, STARPU_R, q,
              STARPU_RW, r, STARPU_W, z, STARPU_SCRATCH, dot_scratch, STARPU_W, partials, STARPU_PRIORITY, priority,
              STARPU_NAME, cl.name());
}

void insert_spectral_gather(const SpectralPlan& p, const TileLayout& L, int i0, int j0, starpu_data_handle_t state,
                            starpu_data_handle_t src, starpu_data_handle_t dense, int priority) {
  const CopyArgs a{p, L, i0, j0, true};
  insert_task(gather_codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_R, state, STARPU_R, src, STARPU_RW, dense,
              STARPU_PRIORITY, priority, STARPU_NAME, "spectral_gather");
}

void insert_spectral_solve_dense(const SpectralPlan& p, starpu_data_handle_t tables, starpu_data_handle_t state,
                                 starpu_data_handle_t dense, int priority) {
  insert_task(solve_dense_codelet(), STARPU_VALUE, &p, sizeof(p), STARPU_R, tables, STARPU_R, state, STARPU_RW, dense,
              STARPU_PRIORITY, priority, STARPU_NAME, "spectral_solve_dense");
}

void insert_spectral_scatter(const SpectralPlan& p, const TileLayout& L, int i0, int j0, starpu_data_handle_t state,
                             starpu_data_handle_t dense, starpu_data_handle_t dst, int priority) {
  const CopyArgs a{p, L, i0, j0, false};
  insert_task(scatter_codelet(), STARPU_VALUE, &a, sizeof(a), STARPU_R, state, STARPU_R, dense, STARPU_W, dst,
              STARPU_PRIORITY, priority, STARPU_NAME, "spectral_scatter");
}

}  // namespace tdc
