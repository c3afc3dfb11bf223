#include <cuda_pipeline.h>

#include "../common/fixed_order_sum.cuh"
#include "../common/gated_graph.hpp"
#include "../common/programmatic_launch.cuh"
#include "../solver_scalars/solver_scalars_update.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "pcg_line_kernel.hpp"

namespace tdc {
namespace {

// One thread per column (the Thomas sweeps are sequential in k), blocks of kSumGroup columns. With
// 65 536 columns (256 x 256) that is too few threads to hide memory latency with loads into registers, so
// the levels a thread needs next are copied into shared memory asynchronously (cp.async), many levels
// ahead, without holding registers: each thread reads back only its own copies (no barrier).
// The forward sweep: batches of kBatch levels of r and A p, kStages - 1 batches in flight while one is
// swept (6 stages, 96 KB a block, measured slower).
// The backward sweep takes the levels in chunks of kLineChunk from the top: it reads r for the chunk
// again (the next chunk's copies in flight meanwhile), recomputes the chunk's w from the two w stored
// below it (the forward sweep left them in z), then eliminates downwards. The recomputed w are the
// forward sweep's bits: the same r, the same formula.
constexpr int kBatch = 4, kStages = 4, kBackStages = 2;
constexpr int kForwardDoubles = kStages * kBatch * 2, kBackwardDoubles = kBackStages * kLineChunk;
constexpr std::size_t kStepSharedBytes =
    std::size_t(kSumGroup) * sizeof(double) * (kForwardDoubles > kBackwardDoubles ? kForwardDoubles : kBackwardDoubles);

// An 8-byte asynchronous copy from global to shared memory (cp.async).
__device__ __forceinline__ void copy_async(double* to, const double* from) {
  __pipeline_memcpy_async(to, from, sizeof(double));
}

template <int S>
__global__ void __launch_bounds__(kSumGroup, 2)
    line_step_kernel(TileLayout L, ColumnCouplings h, const double* __restrict__ coef, const double* __restrict__ st,
                     const double* __restrict__ ap, double* __restrict__ r, double* __restrict__ z, Sums<2>* groups,
                     double* group_max) {
  wait_for_previous_grid();
  allow_next_grid();
  if (solver_skips(st, 1)) return;
  h = with_strides<S>(h);
  const int vs = h.s;
  const double alpha = st[state::kAlpha];
  const bool first = st[state::kIter] == 0.0;
  const int nz = L.nz, t = int(threadIdx.x);
  const int col = blockIdx.x * kSumGroup + t;
  extern __shared__ double copies[];  // copies[slot * kSumGroup + t]: this thread's slots
  auto slot = [&](int n) -> double& { return copies[n * kSumGroup + t]; };
  Sums<2> s{};
  double r_max = 0.0;
  if (col < L.nx * L.ny) {
    const std::ptrdiff_t P = L.plane(), c = L.at(col % L.nx, col / L.nx, 0);
    const int batches = (nz + kBatch - 1) / kBatch;
    auto fetch_batch = [&](int q) {  // r and A p of batch q into stage q mod kStages (one group, maybe empty)
      const int base = q % kStages * kBatch * 2;
      for (int b = 0; b < kBatch; ++b) {
        const int k = q * kBatch + b;
        if (q < batches && k < nz) {
          copy_async(&slot(base + 2 * b), &r[c + P * k]);
          if (!first) copy_async(&slot(base + 2 * b + 1), &ap[c + P * k]);
        }
      }
      __pipeline_commit();
    };
    for (int q = 0; q < kStages - 1; ++q) fetch_batch(q);
    SweepQueue wq;
    for (int q = 0; q < batches; ++q) {
      __pipeline_wait_prior(kStages - 2);  // batch q has landed
      const int base = q % kStages * kBatch * 2;
      double rb[kBatch], ab[kBatch];
#pragma unroll
      for (int b = 0; b < kBatch; ++b) {
        rb[b] = slot(base + 2 * b);
        ab[b] = first ? 0.0 : slot(base + 2 * b + 1);
      }
      fetch_batch(q + kStages - 1);  // into the stage read in the previous batch
#pragma unroll
      for (int b = 0; b < kBatch; ++b) {
        const int k = q * kBatch + b;
        if (k >= nz) break;
        double rs = rb[b];
        if (!first) {
          rs = rs - alpha * ab[b];
          r[c + P * k] = rs;
        }
        r_max = fmax(r_max, fabs(rs));
        s.v[0] = dd_add(s.v[0], rs * rs);
        const double w = thomas_forward(coef, nz, k, rs, wq.back(vs));
        wq.push(w);
        if ((k + 2) % kLineChunk < 2) z[c + P * k] = w;  // the two w below a chunk
      }
    }
    __pipeline_wait_prior(0);
    // The backward sweep reads r and z where this thread has just written them: the copies must see those
    // stores (an asynchronous copy is not ordered after the thread's own stores without a fence).
    __threadfence_block();
    const int top = (nz - 1) / kLineChunk * kLineChunk, chunks = top / kLineChunk + 1;
    auto fetch_chunk = [&](int m) {  // r of chunk m (from the top) into stage m mod kBackStages
      const int k0 = top - m * kLineChunk, base = m % kBackStages * kLineChunk;
      if (m < chunks)
        for (int b = 0; b < kLineChunk; ++b)
          if (k0 + b < nz) copy_async(&slot(base + b), &r[c + P * (k0 + b)]);
      __pipeline_commit();
    };
    auto below = [&](int m, SweepQueue& q) {  // the two w stored below chunk m
      const int k0 = top - m * kLineChunk;
      if (m < chunks && k0 >= 2) q.push(z[c + P * (k0 - 2)]);
      if (m < chunks && k0 >= 1) q.push(z[c + P * (k0 - 1)]);
    };
    fetch_chunk(0);
    SweepQueue cq_next;
    below(0, cq_next);
    SweepQueue zq;
    for (int m = 0; m < chunks; ++m) {
      const int k0 = top - m * kLineChunk, base = m % kBackStages * kLineChunk;
      SweepQueue cq = cq_next;
      cq_next = SweepQueue{};
      fetch_chunk(m + 1);
      below(m + 1, cq_next);
      __pipeline_wait_prior(1);  // chunk m has landed
      double wb[kLineChunk];
#pragma unroll
      for (int b = 0; b < kLineChunk; ++b)
        if (k0 + b < nz) {
          wb[b] = thomas_forward(coef, nz, k0 + b, slot(base + b), cq.back(vs));
          cq.push(wb[b]);
        }
#pragma unroll
      for (int b = kLineChunk - 1; b >= 0; --b)
        if (k0 + b < nz) {
          const int k = k0 + b;
          const double zk = thomas_backward(coef, nz, k, wb[b], zq.back(vs));
          zq.push(zk);
          z[c + P * k] = zk;
          s.v[1] = dd_add(s.v[1], zk * slot(base + b));
        }
    }
  }
  block_max_store(r_max, &group_max[blockIdx.x]);
  block_reduce_store(s, groups);
}

// The direction step in one kernel, marching up a chunk of kDirectionLevels levels (2.5D blocking):
// at level l it forms p'_l = z_l + beta p_l for its block's columns and the ring of h columns around them
// (the ring read from z and p, whose ghost rings or periodic images hold the neighbours' values), keeps
// it in a ring of planes in shared memory, and applies A at level l - s, whose vertical neighbours up to
// level l are then all formed. u's pending updates at the same pass (line_u_update: every second step).
// p' is written on the tile's ghost-ring edges too (the block nearest to each edge cell writes it), so
// that the next step reads p with a valid ghost ring. One pass over p and z (read), p' and A p'
// (written), and every second step u (read and written) and the older direction (read): 4 and 7 field
// passes in turn, against 7 every step for the cell-by-cell update followed by A p' from p' read back.
// Levels loaded ahead. At 256x256x128 (H100, ms per PCG iteration, alternating): 1 level 0.386-0.388,
// 2 levels 0.365-0.368, 3 levels 0.374-0.380 (80 registers: 3 blocks an SM instead of 4).
constexpr int kAhead = 2;
constexpr int kReach = kDirectionReach, kRing = 2 * kReach + 2;  // levels l - 2s .. l in use, l + 1 written
constexpr int kPlaneX = kDirectionBlockX + 2 * kReach, kPlaneY = kDirectionBlockY + 2 * kReach;

// One horizontal position of the block's plane that a thread forms p' at, level by level.
struct PlaneCell {
  bool valid = false, interior = false, ghost_edge = false;  // ghost_edge: this block writes p' there
  int lx = 0, ly = 0;
  std::ptrdiff_t o = 0;  // level 0 of the position (its periodic image on a periodic tile)
};

template <bool Periodic>
__device__ PlaneCell plane_cell(const TileLayout& L, int h, int bx, int by, int lx, int ly) {
  PlaneCell c;
  c.lx = lx;
  c.ly = ly;
  const int gi = bx * kDirectionBlockX + lx, gj = by * kDirectionBlockY + ly;
  c.valid = gi >= -h && gi < L.nx + h && gj >= -h && gj < L.ny + h;
  if (!c.valid) return c;
  const bool out_i = gi < 0 || gi >= L.nx, out_j = gj < 0 || gj >= L.ny;
  c.interior = !out_i && !out_j;
  c.ghost_edge = !Periodic && out_i != out_j && bx == min(max(gi, 0), L.nx - 1) / kDirectionBlockX &&
                 by == min(max(gj, 0), L.ny - 1) / kDirectionBlockY;
  c.o = Periodic ? L.at(periodic_image(gi, L.nx), periodic_image(gj, L.ny), 0) : L.at(gi, gj, 0);
  return c;
}

// The values a thread loads for one level: at its own column (z, p, u and, for a second pending u update,
// the direction before p: q) and at its ring position (z, p).
struct LevelLoads {
  double z0 = 0, p0 = 0, u0 = 0, q0 = 0, z1 = 0, p1 = 0;
};

// No minimum of blocks per SM in the launch bounds: 5 (48 registers) spilled and took 0.437 ms per
// iteration against 0.373.
template <int S, bool Periodic>
__global__ void __launch_bounds__(kSumGroup)
    line_direction_kernel(TileLayout L, ColumnCouplings h, const double* __restrict__ coef,
                          const double* __restrict__ st, double* __restrict__ u, const double* __restrict__ p,
                          const double* __restrict__ z, double* __restrict__ p_next, double* __restrict__ ap_next,
                          Sums<1>* groups) {
  wait_for_previous_grid();
  allow_next_grid();
  if (solver_skips(st, 2)) return;
  h = with_strides<S>(h);
  const int hh = h.h, s = h.s, nz = L.nz;
  const double alpha = st[state::kAlpha], alpha_prev = st[state::kAlphaPrev], beta = st[state::kBeta];
  const bool first = st[state::kIter] == 0.0, finishing = st[state::kDone] >= 1.0;
  const LineUpdate up = line_u_update(st);
  // u + alpha_prev q + alpha p, or u + alpha p (rounded term by term, as one update an iteration would).
  auto updated = [&](double uv, double qv, double pv) {
    if (up.two) uv = uv + alpha_prev * qv;
    return up.newest ? uv + alpha * pv : uv;
  };
  const DirectionGroups g = direction_groups(L);
  const int blk = int(blockIdx.x), bx = blk % g.x, by = blk / g.x % g.y, chunk = blk / (g.x * g.y);
  const int t = int(threadIdx.x), tx = t % kDirectionBlockX, ty = t / kDirectionBlockX;
  const int k0 = chunk * kDirectionLevels, k1 = min(nz, k0 + kDirectionLevels);
  const std::ptrdiff_t P = L.plane();
  const PlaneCell own = plane_cell<Periodic>(L, hh, bx, by, tx, ty);
  if (finishing) {  // the pending u updates only (block-uniform: no barrier below is reached)
    if (up.now && own.interior)
      for (int k = k0; k < k1; ++k) {
        const std::ptrdiff_t o = own.o + P * k;
        u[o] = updated(u[o], up.two ? p_next[o] : 0.0, p[o]);
      }
    return;
  }
  // The ring position of this thread, if any: west and east strips (kDirectionBlockY x h), then south and
  // north (kDirectionBlockX x h); no corners (the operator has no diagonal couplings). (Spreading them over
  // the warps, so that each has the same loads before a barrier, measured no faster.)
  PlaneCell ring_cell;
  {
    int n = t;
    const int we = 2 * kDirectionBlockY * hh, sn = 2 * kDirectionBlockX * hh;
    if (n < we) {
      const int side = n / (kDirectionBlockY * hh), m = n % (kDirectionBlockY * hh), d = m % hh;
      ring_cell = plane_cell<Periodic>(L, hh, bx, by, side == 0 ? -1 - d : kDirectionBlockX + d, m / hh);
    } else if ((n -= we) < sn) {
      const int side = n / (kDirectionBlockX * hh), m = n % (kDirectionBlockX * hh), d = m / kDirectionBlockX;
      ring_cell = plane_cell<Periodic>(L, hh, bx, by, m % kDirectionBlockX, side == 0 ? -1 - d : kDirectionBlockY + d);
    }
  }
  __shared__ double plane[kRing][kPlaneY][kPlaneX];
  const int lo = max(0, k0 - s), hi = min(nz, k1 + s);  // the levels this chunk forms p' at
  auto in_chunk = [&](int l) { return l >= k0 && l < k1; };
  auto load = [&](int l) {
    LevelLoads v;
    if (own.valid) {
      v.z0 = z[own.o + P * l];
      if (!first) {
        v.p0 = p[own.o + P * l];
        if (up.now && own.interior && in_chunk(l)) {
          v.u0 = u[own.o + P * l];
          if (up.two) v.q0 = p_next[own.o + P * l];  // loaded before p' is written there (commit, same thread)
        }
      }
    }
    if (ring_cell.valid) {
      v.z1 = z[ring_cell.o + P * l];
      if (!first) v.p1 = p[ring_cell.o + P * l];
    }
    return v;
  };
  auto direction = [&](double zv, double pv) { return first ? zv : zv + beta * pv; };
  auto commit = [&](int l, const LevelLoads& v) {
    double(&level)[kPlaneY][kPlaneX] = plane[l % kRing];
    if (own.valid) {
      const double pn = direction(v.z0, v.p0);
      level[ty + kReach][tx + kReach] = pn;
      if (in_chunk(l) && (own.interior || own.ghost_edge)) {
        if (own.interior && up.now)
          u[own.o + P * l] = up.newest ? v.u0 + alpha * v.p0 : v.u0;  // u0: with alpha_prev q added
        p_next[own.o + P * l] = pn;
      }
    }
    if (ring_cell.valid) {
      const double pn = direction(v.z1, v.p1);
      level[ring_cell.ly + kReach][ring_cell.lx + kReach] = pn;
      if (in_chunk(l) && ring_cell.ghost_edge) p_next[ring_cell.o + P * l] = pn;
    }
  };
  Sums<1> sum{};
  const int px = tx + kReach, py = ty + kReach;
  auto consume = [&](int k) {
    if (!own.interior) return;
    double(&level)[kPlaneY][kPlaneX] = plane[k % kRing];
    // Levels k - s .. k + s that this chunk formed are in the ring; others (a periodic lid's wrap) are
    // formed again from z and p.
    auto x_at = [&](int di, int dj, int kk) {
      if (di != 0 || dj != 0) return level[py + dj][px + di];
      if (kk >= lo && kk < hi && kk >= k - s && kk <= k + s) return plane[kk % kRing][py][px];
      return direction(z[own.o + P * kk], first ? 0.0 : p[own.o + P * kk]);
    };
    const double a = apply_cell_from(L, h, coef, bx * kDirectionBlockX + tx, by * kDirectionBlockY + ty, k, x_at);
    ap_next[own.o + P * k] = a;
    sum.v[0] = dd_add(sum.v[0], level[py][px] * a);
  };
  // The loads of levels l + 1 .. l + kAhead are in flight while level l is stored and level l - s applied.
  // The next level's first pending u term is added when it moves to the front of the queue (its q0 dies
  // there: one register pair fewer than carrying q0 to commit).
  auto add_older_term = [&](LevelLoads& v) {
    if (up.two) v.u0 = v.u0 + alpha_prev * v.q0;
  };
  LevelLoads ahead[kAhead];
#pragma unroll
  for (int d = 0; d < kAhead; ++d)
    if (lo + d < hi) ahead[d] = load(lo + d);
  add_older_term(ahead[0]);
  for (int l = lo; l < hi; ++l) {
    LevelLoads next;
    if (l + kAhead < hi) next = load(l + kAhead);
    commit(l, ahead[0]);
    __syncthreads();  // plane l is complete; the slot written next was last read two barriers ago
    if (l - s >= k0) consume(l - s);
#pragma unroll
    for (int d = 0; d + 1 < kAhead; ++d) ahead[d] = ahead[d + 1];
    ahead[kAhead - 1] = next;
    add_older_term(ahead[0]);
  }
  for (int k = max(k0, hi - s); k < k1; ++k) consume(k);  // the top levels (their neighbours all formed)
  block_reduce_store(sum, groups);
}

// The group partials finished (unless the solver's done level has reached skip_at), then, with
// fold_state given, the solver's scalars step on this tile's partial (solver_scalars_kernel.hpp: a
// single tile folds it into its tasks) in the same launch: a one-thread kernel of its own took ~4 us
// and a launch gap each half-iteration.
// With group_max given, the groups' largest maximum into out[kMaxAbsAt] (no memset and atomics first).
template <int N>
__global__ void finish_and_fold_kernel(const Sums<N>* groups, long count, double* out, const double* done,
                                       double skip_at, ScalarsArgs then, double* fold_state, const double* group_max,
                                       DeviceLoop loop) {
  wait_for_previous_grid();
  allow_next_grid();
  const bool skip = *done >= skip_at;
  __syncthreads();  // every thread has read done before thread 0 may change it below
  if (!skip) finish_groups_block(groups, count, out, group_max, group_max ? out + kMaxAbsAt : nullptr);
  if (fold_state && threadIdx.x == 0) {
    const double* partial[1] = {out};
    solver_scalars_update(then, fold_state, partial);
  }
  if (threadIdx.x == 0) loop_next(loop);  // a device loop's round ends here: another one?
}
template <int N>
void finish_and_fold(const Sums<N>* groups, long count, double* out, const double* st, double skip_at,
                     const ScalarsArgs* then, double* fold_state, cudaStream_t stream, bool after_kernel,
                     const double* group_max = nullptr, const DeviceLoop& loop = DeviceLoop{}) {
  const bool fold = then && then->tiles > 0;
  launch_programmatic(after_kernel, 1, kSumGroup, 0, stream, &finish_and_fold_kernel<N>, groups, count, out,
                      st + state::kDone, skip_at, fold ? *then : ScalarsArgs{}, fold ? fold_state : nullptr, group_max,
                      loop);
}

// The step kernel's launch. The shared-memory limit above the default 48 KB must be set first (outside a
// capture): allow_step_shared.
// after_kernel: the launch follows a kernel on the stream, and may start while it ends (programmatic_launch.cuh).
void launch_step(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st, const double* ap,
                 double* r, double* z, void* groups, double* out, cudaStream_t stream, const ScalarsArgs* then,
                 double* fold_state, bool after_kernel) {
  const long n = sum_groups(column_items(L));
  auto* g = static_cast<Sums<2>*>(groups);
  double* group_max = reinterpret_cast<double*>(g + n);  // each group's max |r| (pcg_line_scratch_bytes)
  with_stride_constant(h, [&](auto S) {
    launch_programmatic(after_kernel, unsigned(n), kSumGroup, kStepSharedBytes, stream,
                        &line_step_kernel<decltype(S)::value>, L, h, coef, st, ap, r, z, g, group_max);
  });
  finish_and_fold<2>(g, n, out, st, 1.0, then, fold_state, stream, true, group_max);
}
// Set at every launch: it holds for the current device only.
void allow_step_shared(const ColumnCouplings& h) {
  with_stride_constant(h, [&](auto S) {
    TDC_CUDA_CHECK(cudaFuncSetAttribute(&line_step_kernel<decltype(S)::value>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, int(kStepSharedBytes)));
  });
}

void launch_direction_kernel(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                             double* u, const double* p, const double* z, double* p_next, double* ap_next, void* groups,
                             bool periodic, cudaStream_t stream, bool after_kernel) {
  const long n = direction_groups(L).count();
  auto* g = static_cast<Sums<1>*>(groups);
  with_stride_constant(h, [&](auto S) {
    constexpr int s = decltype(S)::value;
    launch_programmatic(after_kernel, unsigned(n), kSumGroup, 0, stream,
                        periodic ? &line_direction_kernel<s, true> : &line_direction_kernel<s, false>, L, h, coef, st,
                        u, p, z, p_next, ap_next, g);
  });
}
// The direction sum finished (none while finishing) and the scalars step folded in, if given.
void finish_direction(const TileLayout& L, const double* st, void* groups, double* out, const ScalarsArgs* then,
                      double* fold_state, cudaStream_t stream, bool after_kernel,
                      const DeviceLoop& loop = DeviceLoop{}) {
  finish_and_fold<1>(static_cast<Sums<1>*>(groups), direction_groups(L).count(), out, st, 1.0, then, fold_state, stream,
                     after_kernel, nullptr, loop);
}

}  // namespace

void pcg_line_step_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                        const double* ap, double* r, double* z, void* groups, double* out, cudaStream_t stream) {
  allow_step_shared(h);
  launch_step(L, h, coef, st, ap, r, z, groups, out, stream, nullptr, nullptr, false);
}

void pcg_line_direction_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, const double* st,
                             double* u, const double* p, const double* z, double* p_next, double* ap_next, void* groups,
                             double* out, bool periodic, cudaStream_t stream) {
  check_direction_strides(h);
  // The kernel is gated (a skipped one costs a small kernel); the finish returns at once when it skipped.
  launch_gated(
      gate_key(L, h.ae, h.aw, h.an, h.as, h.h, h.s, h.z_wrap, coef, st, u, p, z, p_next, ap_next, groups, periodic),
      st + state::kDone, 2.0, stream, [&](cudaStream_t capture) {
        launch_direction_kernel(L, h, coef, st, u, p, z, p_next, ap_next, groups, periodic, capture, false);
      });
  finish_direction(L, st, groups, out, nullptr, nullptr, stream, false);
}

void pcg_line_iterations_cuda(const TileLayout& L, const ColumnCouplings& h, const double* coef, double* st, double* u,
                              double* const dir[2], double* ap, double* r, double* z, void* groups, double* out,
                              const ScalarsArgs& after_step, const ScalarsArgs& after_direction, int parity, int count,
                              cudaStream_t stream) {
  check_direction_strides(h);
  allow_step_shared(h);
  std::string key = gate_key(L, h.ae, h.aw, h.an, h.as, h.h, h.s, h.z_wrap, coef, st, u, dir[0], dir[1], ap, r, z,
                             groups, out, parity, count % 2);  // the round count is set per launch
  for (const ScalarsArgs* a : {&after_step, &after_direction}) {
    key += gate_key(a->op, a->tiles, a->sums, a->new_slot);
    for (int slot : a->slots) key += gate_key(slot);
  }
  // One iteration: p in dir[(parity + which) % 2]; its last kernel may end a device loop's round.
  auto iteration = [&](cudaStream_t capture, int which, bool after_kernel, const DeviceLoop& loop) {
    double *p = dir[(parity + which) % 2], *p_next = dir[(parity + which + 1) % 2];
    launch_step(L, h, coef, st, ap, r, z, groups, out, capture, &after_step, st, after_kernel);
    launch_direction_kernel(L, h, coef, st, u, p, z, p_next, ap, groups, true, capture, true);
    finish_direction(L, st, groups, out, &after_direction, st, capture, true, loop);
  };
  // A round is two iterations (the direction buffers back where they were), looped on the device until the
  // state says done; an odd count ends with one more iteration after the loop.
  std::function<void(cudaStream_t)> tail;
  if (count % 2) tail = [&](cudaStream_t capture) { iteration(capture, 0, false, DeviceLoop{}); };
  launch_gated_loop(
      key, st + state::kDone, 2.0, count / 2, stream,
      [&](cudaStream_t capture, const DeviceLoop& loop) {
        iteration(capture, 0, false, DeviceLoop{});  // the round's first kernel follows none in its graph
        iteration(capture, 1, true, loop);
      },
      tail);
}

}  // namespace tdc
