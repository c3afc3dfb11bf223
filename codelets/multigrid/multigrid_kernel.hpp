// Geometric multigrid on the tiles, as the preconditioner of the pressure solve (laplc, strides 2):
// the three kernels of a V-cycle, plain CPU and CUDA, no StarPU.
//
// laplc couples cells two apart, so its cells form 8 interleaved lattices (even/odd in x, y, z) that
// meet only at rigid lids. Coarsening must keep that structure: on the lattice of stride h, two
// neighbouring cells merge into one coarse cell, which sits on the coarse grid's lattice of the same
// parity:  coarse I = h (i / 2h) + i % h  ⇐  fine i = 2h (I / h) + I % h + h b,  b = 0, 1.
// (h = 1 gives the usual pairs 2I, 2I + 1.) The coarse operator is laplc rediscretised at twice the
// spacing; restriction averages the 8 merged cells, prolongation copies the coarse value to them.
// With that pair the smoothest modes are corrected exactly (R A P = 2 A_coarse in 3D, so the
// Galerkin operator would halve them). The smoother is damped Jacobi, the same sweep before and after
// the coarse correction, so the V-cycle is a symmetric preconditioner for PCG.
#pragma once
#include "../column_operator/column_operator.hpp"

#if defined(TASKDYCORE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tdc {

// log2 of a lattice stride: strides are powers of two (make_vcycle_plan checks), so that the index
// maps below shift and mask (a division by a run-time divisor is some 20 instructions on a GPU, and
// the fused passes map 7 neighbours per cell).
TDC_HD int stride_log2(int h) {
#if defined(__CUDA_ARCH__)
  return h == 2 ? 1 : h == 1 ? 0 : __ffs(h) - 1;  // the usual strides fold to constants (with_strides)
#else
  return __builtin_ctz(unsigned(h));
#endif
}

// The fine index of merged cell b (0, 1) of coarse index I >= 0, on lattices of stride h:
// 2 h (I / h) + I % h + h b.
TDC_HD int fine_of_coarse(int I, int h, int b) {
  const int e = stride_log2(h);
  return ((I >> e) << (e + 1)) + (I & (h - 1)) + h * b;
}

// The coarse index of fine index i >= 0 (the inverse of fine_of_coarse): h (i / 2h) + i % h.
TDC_HD int coarse_of_fine(int i, int h) {
  const int e = stride_log2(h);
  return ((i >> (e + 1)) << e) + (i & (h - 1));
}

// The damped Jacobi weight at level k: omega / diag, from the stored inverse diagonal (kInvDiag), so
// that no sweep divides (an FP64 division is some 20 instructions on a GPU, and the single-tile
// cycle forms the first sweep on the fly at every point the next pass reads).
TDC_HD double jacobi_weight(const double* c, int nz, int k, double omega) { return omega * coef(c, kInvDiag, nz, k); }

// The first sweep from a zero guess: z = w r.
TDC_HD double jacobi_first(const double* c, int nz, int k, double omega, double r) {
  return jacobi_weight(c, nz, k, omega) * r;
}

// One damped Jacobi sweep: z_out = z + w (r - A z), z read through apply_cell_from's z_at.
template <class Z>
TDC_HD double jacobi_from(const TileLayout& L, const ColumnCouplings& h, const double* c, double omega, const double* r,
                          int i, int j, int k, Z&& z_at) {
  return z_at(0, 0, k) +
         jacobi_weight(c, L.nz, k, omega) * (r[L.at(i, j, k)] - apply_cell_from(L, h, c, i, j, k, z_at));
}
// The same with z an array with a valid halo.
TDC_HD double jacobi_cell(const TileLayout& L, const ColumnCouplings& h, const double* c, double omega, const double* r,
                          const double* z, int i, int j, int k) {
  return jacobi_from(L, h, c, omega, r, i, j, k, ArrayAt(L, z, i, j, k));
}

// The restricted residual at coarse cell (I, J, K): the mean of r - A z over its 8 fine cells, summed in
// a fixed order (b_z, b_y, b_x) so that every kernel gives the same bits; z read through z_at(i, j, k).
template <class Z>
TDC_HD double restrict_residual_from(const TileLayout& F, const ColumnCouplings& h, const double* c, const double* r,
                                     int I, int J, int K, Z&& z_at) {
  double sum = 0.0;
  for (int bz = 0; bz < 2; ++bz)
    for (int by = 0; by < 2; ++by)
      for (int bx = 0; bx < 2; ++bx) {
        const int i = fine_of_coarse(I, h.h, bx), j = fine_of_coarse(J, h.h, by), k = fine_of_coarse(K, h.s, bz);
        sum += r[F.at(i, j, k)] -
               apply_cell_from(F, h, c, i, j, k, [&](int di, int dj, int kk) { return z_at(i + di, j + dj, kk); });
      }
  return 0.125 * sum;
}
TDC_HD double restrict_residual_cell(const TileLayout& F, const ColumnCouplings& h, const double* c, const double* r,
                                     const double* z, int I, int J, int K) {
  return restrict_residual_from(F, h, c, r, I, J, K, [&](int i, int j, int k) { return z[F.at(i, j, k)]; });
}

// The single-tile cycle on the GPU (mg_vcycle_cuda) fuses each level's passes: the first sweep from
// zero (s = w r) is never stored but formed wherever the next passes read it, the restriction reads
// its ghost cells where the halo copy would have put them, and the prolongation is formed inside the
// last sweep. A single tile holds the whole, horizontally periodic domain, so a ghost cell's value is
// its periodic image's. Same operations, same bits. (periodic_image: column_operator.hpp.)

// restrict_residual_cell of the first sweep s = w r, formed on the fly (ghosts at their periodic images).
TDC_HD double restrict_first_sweep_cell(const TileLayout& F, const ColumnCouplings& h, const double* c, double omega,
                                        const double* r, int I, int J, int K) {
  return restrict_residual_from(F, h, c, r, I, J, K, [&](int i, int j, int k) {
    return jacobi_first(c, F.nz, k, omega, r[F.at(periodic_image(i, F.nx), periodic_image(j, F.ny), k)]);
  });
}

// jacobi_cell on s + P z_c, with s = w r the first sweep (prolong_add's sum, formed on the fly; ghosts
// at their periodic images). Addresses go from the cell's own: a neighbour along x or y changes one
// fine and one coarse index.
TDC_HD double prolong_sweep_cell(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* c,
                                 double omega, const double* r, const double* zc, int i, int j, int k) {
  const int ci = coarse_of_fine(i, h.h), cj = coarse_of_fine(j, h.h);
  const std::ptrdiff_t of = F.at(i, j, k), oc = C.at(ci, cj, 0);
  auto z_at = [&](int di, int dj, int kk) {
    const int ia = di == 0 ? i : periodic_image(i + di, F.nx), jb = dj == 0 ? j : periodic_image(j + dj, F.ny);
    const int ca = di == 0 ? ci : coarse_of_fine(ia, h.h), cb = dj == 0 ? cj : coarse_of_fine(jb, h.h);
    return jacobi_first(c, F.nz, kk, omega, r[of + ((ia - i) + (jb - j) * F.sx()) + F.plane() * (kk - k)]) +
           zc[oc + ((ca - ci) + (cb - cj) * C.sx()) + C.plane() * coarse_of_fine(kk, h.s)];
  };
  return jacobi_from(F, h, c, omega, r, i, j, k, z_at);
}

// r_c = R (r - A z) on a coarse tile C from the fine tile F (z with a valid halo); C has half of F's
// cells in every direction (its halo may differ).
void mg_restrict_residual_cpu(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* coef,
                              const double* st, int skip_from, const double* r, const double* z, double* rc);
// z += P z_c: every fine interior cell gets its coarse cell's value added.
void mg_prolong_add_cpu(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* st,
                        int skip_from, const double* zc, double* z);
// first = true: z_out = omega r / diag (z_in unused); else z_out = z_in + omega (r - A z_in) / diag.
void mg_jacobi_cpu(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st, int skip_from,
                   double omega, bool first, const double* r, const double* z_in, double* z_out);
#if defined(TASKDYCORE_HAVE_CUDA)
// The fused passes of the single-tile cycle (see periodic_image): r_c = R (r - A s) with s = w r, and
// z = the last sweep on s + P z_c.
void mg_restrict_first_sweep_cuda(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h,
                                  const double* coef, const double* st, int skip_from, double omega, const double* r,
                                  double* rc, cudaStream_t stream);
void mg_prolong_sweep_cuda(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* coef,
                           const double* st, int skip_from, double omega, const double* r, const double* zc, double* z,
                           cudaStream_t stream);
void mg_restrict_residual_cuda(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* coef,
                               const double* st, int skip_from, const double* r, const double* z, double* rc,
                               cudaStream_t stream);
void mg_prolong_add_cuda(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* st,
                         int skip_from, const double* zc, double* z, cudaStream_t stream);
void mg_jacobi_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st, int skip_from,
                    double omega, bool first, const double* r, const double* z_in, double* z_out, cudaStream_t stream);
// The fused PCG's end of the single-tile cycle (mg_pcg_precon_cuda): prolong_sweep with dot_partial's
// <r, r>, <r, z> and max |r| of the result, in dot_partial's order (groups: dot_partial's scratch; out:
// its partials).
void mg_prolong_sweep_dot_cuda(const TileLayout& F, const TileLayout& C, const ColumnCouplings& h, const double* coef,
                               const double* st, int skip_from, double omega, const double* r, const double* zc,
                               double* z, void* groups, double* out, cudaStream_t stream);
#endif

}  // namespace tdc
