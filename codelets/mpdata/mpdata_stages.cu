#include <limits>
#include <stdexcept>
#include <type_traits>

#include "../common/branch_free_divide.cuh"
#include "../common/cuda_check.hpp"
#include "../common/exact_fixup.cuh"
#include "mpdata_stages.hpp"

namespace tdc {
namespace mpdata {
namespace {

// One thread per cell: x over i (coalesced), y over j, z over k.
struct CellIndex {
  int i, j, k;
  bool inside;
};
__device__ CellIndex cell_index(const Cells& s, Box box) {
  CellIndex c;
  c.i = box.i0 + int(blockIdx.x * blockDim.x + threadIdx.x);
  c.j = box.j0 + int(blockIdx.y * blockDim.y + threadIdx.y);
  c.k = int(blockIdx.z);
  c.inside = c.i < box.i1 && c.j < box.j1;
  return c;
}
// Where a stage reads the tile arrays around cell (i, j, k): the formulae take planes and the
// indices to read them at. TileFrame gives each array's planes of level k and (i, j), with 64-bit
// offsets from the layout; CellFrame moves the planes to the cell itself, with one 32-bit offset
// for all arrays, and the formulae read around (0, 0). CellFrame executes 10-17 % fewer
// instructions, but at the benchmark's clocks it is faster only in two kernels (kernel times with
// warm caches, 256^3, H100; tools/gpu_bench.sh profile): the limiter's factors at G = 1 in the
// infinite gauge (350 against 376 us) and the limited pass with G (417 against 439 us). It is slower
// in the antidiffusive kernel (691 against 676 us with G, 425 against 393 at G = 1), in the limiter's
// factors with G (450 against 427), and no faster in the upwind passes. So each stage names its frame
// (kCellOffsets). With those two: 1.862 against 1.883 ms a step with G (direct), 1.368 against 1.392
// at G = 1 (docs/performance.md, "MPDATA on one GPU").
struct TileFrame {
  Cells s;
  int i, j, k;
  __device__ std::ptrdiff_t n() const { return s.L.at(i, j, k); }
  __device__ Planes at(const double* p) const { return s.at(p, k); }
  __device__ Planes at(const DensityArray& d) const { return d.at(s, k); }
  __device__ UnitDensity at(const DensityOne&) const { return {}; }
};
struct CellFrame {
  int i = 0, j = 0;        // the formulae's indices: the planes start at the cell
  int cell, below, above;  // offsets of the cell and of its neighbours below and above
  int row;
  __device__ CellFrame(const Cells& s, int ci, int cj, int k) {
    const TileLayout& L = s.L;
    row = L.sx();
    const int plane = row * L.sy();
    cell = (ci + L.halo) + row * (cj + L.halo) + plane * k;
    below = cell + plane * (k_below(k, L.nz, s.zb) - k);
    above = cell + plane * (k_above(k, L.nz, s.zb) - k);
  }
  __device__ int n() const { return cell; }
  __device__ Planes at(const double* p) const { return {p + below, p + cell, p + above, row}; }
  __device__ Planes at(const DensityArray& d) const { return at(d.g); }
  __device__ UnitDensity at(const DensityOne&) const { return {}; }
};
template <bool kCellOffsets>
__device__ auto frame(const Cells& s, int i, int j, int k) {
  if constexpr (kCellOffsets)
    return CellFrame(s, i, j, k);
  else
    return TileFrame{s, i, j, k};
}

// 32 x 4 threads a block (16 x 8 and 64 x 2 were no faster for the branch-free kernels, 256^3, H100).
dim3 block_shape() { return dim3(32, 4, 1); }
dim3 grid_shape(const Cells& s, Box box) {
  const dim3 b = block_shape();
  return dim3((box.width() + b.x - 1) / b.x, (box.height() + b.y - 1) / b.y, s.L.nz);
}

// The infinite gauge (`linear` in the upwind passes) is a template argument: those kernels carry no
// branch for the other gauge (at G = 1 the antidiffusive kernel drops from 64 to 56 registers,
// fct_beta from 44 to 32; the dynamical core's MPDATA step took 1.43 against 1.78 ms at 256^3). The
// upwind passes keep the run-time flag for the plain gauge (with a / b, specialising it gave the
// antidiffusive kernel 84 registers against 76, and the FCT bench 2.92 against 2.81 ms); the
// branch-free cells take the gauge as a constant both ways (1.96 against 2.00-2.08 ms with G at
// 256^3 on the H100). The same arithmetic either way.
template <class F>
void with_gauge(bool iga, F&& f) {
  if (iga)
    f(std::true_type{});
  else
    f(std::false_type{});
}

// Each stage is a cell functor: cell(i, j, k, divide) computes and stores cell (i, j, k). Where a
// stage divides by more than G (the antidiffusive velocities with G or in the plain gauge: 9 to 18
// divisions a cell; the limiter's factors: 2), it divides with BranchFreeDivide (kBranchFree), and a
// cell that leaves its fast path is recomputed with a / b by the fix-up kernel (exact_fixup.cuh):
// same bits either way. Measured at 256^3 on the H100 (docs/performance.md, "MPDATA on one GPU"): with G,
// 1.97 against 2.85 ms a step. Not taken: the upwind passes (one division, by G: no faster)
// and the limiter at G = 1 in the infinite gauge (the dynamical core's form: no faster).
template <class D, bool iga>
struct UpwindCell {
  static constexpr bool kBranchFree = false;
  static constexpr int kMinBlocks = 0;  // no register cap
  static constexpr bool kCellOffsets = false;
  Cells s;
  const double *psi, *c1, *c2, *c3;
  D density;
  double* out;
  bool linear;
  template <class Divide>
  __device__ void operator()(int i, int j, int k, const Divide& div) const {
    const auto f = frame<kCellOffsets>(s, i, j, k);
    out[f.n()] =
        upwind_cell(s.lids(k), f.at(psi), f.at(c1), f.at(c2), f.at(c3), f.at(density), f.i, f.j, iga || linear, div);
  }
};

template <class D, bool iga>
struct LimitedUpwindCell {
  static constexpr bool kBranchFree = false;
  static constexpr int kMinBlocks = 0;                                        // no register cap
  static constexpr bool kCellOffsets = std::is_same<D, DensityArray>::value;  // with G only (see TileFrame)
  Cells s;
  const double *psi, *v1, *v2, *v3, *up, *down;
  D density;
  double* out;
  bool linear;
  template <class Divide>
  __device__ void operator()(int i, int j, int k, const Divide& div) const {
    const auto f = frame<kCellOffsets>(s, i, j, k);
    out[f.n()] = limited_upwind_cell(s.lids(k), f.at(psi), f.at(v1), f.at(v2), f.at(v3), f.at(up), f.at(down),
                                     f.at(density), f.i, f.j, iga || linear, div);
  }
};

template <class D, bool iga>
struct AntidiffusiveCell {
  static constexpr bool kBranchFree = !(iga && std::is_same<D, DensityOne>::value);  // else nothing to divide
  // Blocks of 128 threads per SM: at most 64 registers, with 32 bytes of spills with G (direct runs
  // at 256^3: 1.884 ms a step, against 1.917 at 72 registers and 2.124 at 56; uncapped it took 108).
  // Where it divides nothing, no cap: capped at 56 it spilled and was 3 % slower.
  static constexpr int kMinBlocks = kBranchFree ? 8 : 0;
  static constexpr bool kCellOffsets = false;
  Cells s;
  Options o;
  const double *psi, *c1, *c2, *c3;
  D density;
  double *v1, *v2, *v3;
  template <class Divide>
  __device__ void operator()(int i, int j, int k, const Divide& div) const {
    Options opt = o;
    opt.iga = iga;  // with_gauge dispatched on o.iga: a constant here
    const auto f = frame<kCellOffsets>(s, i, j, k);
    const FaceVelocity v =
        antidiffusive_faces(s.lids(k), opt, f.at(psi), f.at(c1), f.at(c2), f.at(c3), f.at(density), f.i, f.j, div);
    v1[f.n()] = v.x;
    v2[f.n()] = v.y;
    v3[f.n()] = v.z;
  }
};

template <class D, bool iga>
struct FctBetaCell {
  static constexpr bool kBranchFree = !(iga && std::is_same<D, DensityOne>::value);
  static constexpr int kMinBlocks = iga ? 16 : 10;    // at most 32 registers (infinite gauge) or 48
  static constexpr bool kCellOffsets = !kBranchFree;  // at G = 1 in the infinite gauge only (see TileFrame)
  Cells s;
  Options o;
  const double *psi0, *psi1, *psi, *v1, *v2, *v3;
  D density;
  double *up, *down;
  template <class Divide>
  __device__ void operator()(int i, int j, int k, const Divide& div) const {
    Options opt = o;
    opt.iga = iga;  // with_gauge dispatched on o.iga: a constant here
    const auto f = frame<kCellOffsets>(s, i, j, k);
    const Beta b = fct_beta_cell(s.lids(k), opt, f.at(psi0), f.at(psi1), f.at(psi), f.at(v1), f.at(v2), f.at(v3),
                                 f.at(density), f.i, f.j, div);
    up[f.n()] = b.up;
    down[f.n()] = b.down;
  }
};

template <class Cell>
__global__ void __launch_bounds__(128, Cell::kMinBlocks) cell_kernel(Cells s, Box box, Cell cell, FixupList fixup) {
  const CellIndex c = cell_index(s, box);
  if constexpr (Cell::kBranchFree) {
    bool fast = true;
    if (c.inside) cell(c.i, c.j, c.k, BranchFreeDivide{&fast});
    record_fixup(fixup, box, c.i, c.j, c.k, !fast);
  } else {
    if (c.inside) cell(c.i, c.j, c.k, ExactDivide{});
  }
}

template <class Cell>
void launch_cells(const Cells& s, Box box, const Cell& cell, cudaStream_t st) {
  if (box.empty()) return;
  if (Cell::kCellOffsets && s.L.size() > std::size_t(std::numeric_limits<int>::max()))
    throw std::length_error("MPDATA CUDA kernels: a tile of more than 2^31 cells (split the domain into more tiles)");
  if constexpr (Cell::kBranchFree) {
    const FixupList fixup = fixup_list_for(st);
    cell_kernel<<<grid_shape(s, box), block_shape(), 0, st>>>(s, box, cell, fixup);
    fixup_kernel<ExactDivide><<<kFixupBlocks, kFixupThreads, 0, st>>>(fixup, box, s.L.nz, cell);
  } else {
    cell_kernel<<<grid_shape(s, box), block_shape(), 0, st>>>(s, box, cell, FixupList{});
  }
  TDC_CUDA_CHECK(cudaGetLastError());
}

__global__ void fct_limit_kernel(Cells s, Box box, const double* up, const double* down, double* v1, double* v2,
                                 double* v3) {
  const CellIndex c = cell_index(s, box);
  if (!c.inside) return;
  const std::ptrdiff_t n = s.L.at(c.i, c.j, c.k), w = s.L.at(c.i - 1, c.j, c.k), so = s.L.at(c.i, c.j - 1, c.k);
  v1[n] = fct_limit_face(v1[n], up[w], down[w], up[n], down[n]);
  v2[n] = fct_limit_face(v2[n], up[so], down[so], up[n], down[n]);
  if (!s.lids(c.k).below) {
    const std::ptrdiff_t b = s.L.at(c.i, c.j, k_below(c.k, s.L.nz, s.zb));
    v3[n] = fct_limit_face(v3[n], up[b], down[b], up[n], down[n]);
  }
}

}  // namespace

void upwind_cuda(const Cells& s, Box box, const double* psi, const double* c1, const double* c2, const double* c3,
                 const double* g, double* out, bool linear, cudaStream_t st) {
  with_density(g, [&](auto d) {
    with_gauge(linear, [&](auto lin) {
      launch_cells(s, box, UpwindCell<decltype(d), decltype(lin)::value>{s, psi, c1, c2, c3, d, out, linear}, st);
    });
  });
}

void limited_upwind_cuda(const Cells& s, Box box, const double* psi, const double* v1, const double* v2,
                         const double* v3, const double* up, const double* down, const double* g, double* out,
                         bool linear, cudaStream_t st) {
  with_density(g, [&](auto d) {
    with_gauge(linear, [&](auto lin) {
      launch_cells(s, box,
                   LimitedUpwindCell<decltype(d), decltype(lin)::value>{s, psi, v1, v2, v3, up, down, d, out, linear},
                   st);
    });
  });
}

void antidiffusive_cuda(const Cells& s, const Options& o, Box box, const double* psi, const double* c1,
                        const double* c2, const double* c3, const double* g, double* v1, double* v2, double* v3,
                        cudaStream_t st) {
  with_density(g, [&](auto d) {
    with_gauge(o.iga, [&](auto iga) {
      launch_cells(s, box, AntidiffusiveCell<decltype(d), decltype(iga)::value>{s, o, psi, c1, c2, c3, d, v1, v2, v3},
                   st);
    });
  });
}

void fct_beta_cuda(const Cells& s, const Options& o, Box box, const double* psi0, const double* psi1, const double* psi,
                   const double* v1, const double* v2, const double* v3, const double* g, double* up, double* down,
                   cudaStream_t st) {
  with_density(g, [&](auto d) {
    with_gauge(o.iga, [&](auto iga) {
      launch_cells(s, box,
                   FctBetaCell<decltype(d), decltype(iga)::value>{s, o, psi0, psi1, psi, v1, v2, v3, d, up, down}, st);
    });
  });
}

void fct_limit_cuda(const Cells& s, Box box, const double* up, const double* down, double* v1, double* v2, double* v3,
                    cudaStream_t st) {
  if (box.empty()) return;
  fct_limit_kernel<<<grid_shape(s, box), block_shape(), 0, st>>>(s, box, up, down, v1, v2, v3);
  TDC_CUDA_CHECK(cudaGetLastError());
}

}  // namespace mpdata
}  // namespace tdc
