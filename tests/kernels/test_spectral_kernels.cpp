// The spectral preconditioner's kernels: M inverts a separable operator (a Helmholtz-shifted laplc)
// to round-off, is the pseudo-inverse of the singular laplc (A M r = r for r in A's range, M c = 0 for
// the lattice constants), under periodic and rigid-lid (mirror) vertical rules and on grids whose three
// sizes differ; operators it cannot invert are refused with a reason; the slab form on tiles gives the
// whole solve's bits for any tile layout and slab count; level coefficients that vary with height
// (stratified and anelastic laplc, unequal up and down couplings) take the direct solve of every
// vertical cycle, with the same properties; and every CUDA form equals its CPU form bit for bit
// (skipped without a device: run on the GPU machine).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "codelets/column_operator/column_operator.hpp"
#include "codelets/dot_partial/dot_partial_kernel.hpp"
#include "codelets/solver_scalars/solver_state.hpp"
#include "codelets/spectral_precon/spectral_precon_kernel.hpp"
#include "codelets/spectral_precon/spectral_slabs.hpp"
#if defined(TASKDYCORE_HAVE_CUDA)
#include "codelets/common/gated_graph.hpp"
#include "device_array.hpp"
#endif

#include "random_values.hpp"
using namespace tdc;

namespace {

#if defined(TASKDYCORE_HAVE_CUDA)
// TASKDYCORE_GATED_GRAPHS=off: the spectral kernels launched directly (as under a profiler).
[[maybe_unused]] const bool kUngated = [] {
  const char* v = std::getenv("TASKDYCORE_GATED_GRAPHS");
  const bool off = v && std::string(v) == "off";
  if (off) set_gated_graphs(false);
  return off;
}();
#endif

// laplc-like couplings (strides 2) with different spacings per axis, and A = -(L - shift).
ColumnCouplings couplings(int z_wrap) { return ColumnCouplings{0.7, 0.7, 0.45, 0.45, 2, 2, z_wrap}; }
std::vector<double> coefficients(int nz, double shift) {
  std::vector<double> c(std::size_t(kLevelVectors) * nz, 0.0);
  for (int k = 0; k < nz; ++k) {
    c[kCb * nz + k] = c[kCc * nz + k] = 0.3;
    c[kC0 * nz + k] = -2.0 * (0.7 + 0.45 + 0.3) - shift;
    c[kD * nz + k] = -1.0;
  }
  finish_thomas_vectors(c.data(), nz, 1.0, 2);
  return c;
}

// Level coefficients that vary with height, as graph/collocated_laplacian.cpp builds the stratified
// (vertical weights alpha) and anelastic (density rho) laplc: row k reaches k +- 2 with
// az w(k +- 1) / rho_k, w = alpha rho, and d_k = -rho_k; its rows sum to 0 (singular) unless shifted.
struct VerticalProfile {
  const char* name;
  double (*alpha)(double zeta), (*rho)(double zeta);  // of the height fraction zeta in [0, 1)
};
const VerticalProfile kProfiles[] = {
    {"stratified", [](double z) { return 1.0 / (1.0 + 0.6 * z * z); }, [](double) { return 1.0; }},
    {"anelastic", [](double) { return 1.0; }, [](double z) { return std::exp(-1.3 * z); }},
    {"anelastic stratified", [](double z) { return 1.0 / (1.0 + 0.4 * z); }, [](double z) { return std::exp(-z); }},
};
std::vector<double> varying_coefficients(int nz, int z_wrap, const VerticalProfile& f, double shift) {
  const double ax = 0.7, ay = 0.45, az = 0.3;
  auto level = [&](int k) {  // a level beyond a lid: its periodic or mirror image
    if (k >= 0 && k < nz) return k;
    if (z_wrap == kWrapPeriodic) return (k + nz) % nz;
    return k < 0 ? -1 - k : 2 * nz - 1 - k;
  };
  auto zeta = [&](int k) { return (k + 0.5) / nz; };
  auto w = [&](int k) { return f.alpha(zeta(level(k))) * f.rho(zeta(level(k))); };
  std::vector<double> c(std::size_t(kLevelVectors) * nz, 0.0);
  for (int k = 0; k < nz; ++k) {
    const double rho = f.rho(zeta(k)), up = az * w(k + 1) / rho, down = az * w(k - 1) / rho;
    c[kCb * nz + k] = up;
    c[kCc * nz + k] = down;
    c[kC0 * nz + k] = -2.0 * (ax + ay) - (up + down) - shift;
    c[kD * nz + k] = -rho;
  }
  finish_thomas_vectors(c.data(), nz, 1.0, 2);
  return c;
}
// Constant levels whose up and down couplings differ (a nonsymmetric vertical part), shifted.
std::vector<double> skewed_coefficients(int nz, double shift) {
  auto c = coefficients(nz, shift);
  for (int k = 0; k < nz; ++k) c[kCc * nz + k] = 0.2;
  return c;
}

std::vector<double> random_field(const TileLayout& L, unsigned seed) { return tdc_test::random_values(L.size(), seed); }

// y = A x on a tile that is the whole periodic domain (ghosts read at their periodic images).
std::vector<double> apply(const TileLayout& L, const ColumnCouplings& h, const std::vector<double>& c,
                          const std::vector<double>& x) {
  std::vector<double> y(L.size(), 0.0);
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i)
        y[L.at(i, j, k)] = apply_cell_from(L, h, c.data(), i, j, k, PeriodicAt(L, x.data(), i, j, k));
  return y;
}

double max_interior_diff(const TileLayout& L, const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0.0;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) m = std::max(m, std::fabs(a[L.at(i, j, k)] - b[L.at(i, j, k)]));
  return m;
}

const std::vector<double> kRunning(state_doubles(4), 0.0);

std::vector<double> solve_cpu(const TileLayout& L, const ColumnCouplings& h, const std::vector<double>& c,
                              const std::vector<double>& r) {
  std::vector<double> tab, z(L.size(), 0.0);
  const SpectralPlan p = make_spectral_plan(L.nx, L.ny, L.nz, h, c, tab);
  spectral_solve_cpu(p, tab.data(), kRunning.data(), tile_view(L, r.data()), tile_view(L, z.data()));
  return z;
}

TEST(SpectralKernels, InvertsTheShiftedOperatorToRoundOff) {
  for (int wrap : {kWrapPeriodic, kWrapMirror}) {
    const TileLayout L{16, 8, 32, 2};
    const auto h = couplings(wrap);
    const auto c = coefficients(L.nz, 0.25);
    const auto x = random_field(L, 3);
    const auto z = solve_cpu(L, h, c, apply(L, h, c, x));
    EXPECT_LT(max_interior_diff(L, z, x), 1e-12) << "z_wrap " << wrap;
  }
}

// The longest horizontal lines (the density current at 25 m: 2048 points along x), both axes.
TEST(SpectralKernels, InvertsTheLongestLines) {
  for (const TileLayout& L : {TileLayout{kMaxSpectralLength, 2, 4, 2}, TileLayout{2, kMaxSpectralLength, 4, 2}}) {
    const auto h = couplings(kWrapMirror);
    const auto c = coefficients(L.nz, 0.25);
    const auto x = random_field(L, 7);
    const auto z = solve_cpu(L, h, c, apply(L, h, c, x));
    EXPECT_LT(max_interior_diff(L, z, x), 1e-12) << "nx " << L.nx;
  }
}

TEST(SpectralKernels, IsThePseudoInverseOfTheSingularLaplacian) {
  for (int wrap : {kWrapPeriodic, kWrapMirror}) {
    const TileLayout L{8, 32, 16, 3};
    const auto h = couplings(wrap);
    const auto c = coefficients(L.nz, 0.0);
    const auto r = apply(L, h, c, random_field(L, 5));  // in the range of A
    const auto z = solve_cpu(L, h, c, r);
    double rmax = 0.0;
    for (int k = 0; k < L.nz; ++k)
      for (int j = 0; j < L.ny; ++j)
        for (int i = 0; i < L.nx; ++i) rmax = std::max(rmax, std::fabs(r[L.at(i, j, k)]));
    EXPECT_LT(max_interior_diff(L, apply(L, h, c, z), r), 1e-12 * rmax) << "z_wrap " << wrap;
    // A lattice constant (x, y even; every level) is in the null space: M gives it no response.
    std::vector<double> lattice(L.size(), 0.0);
    for (int k = 0; k < L.nz; ++k)
      for (int j = 0; j < L.ny; j += 2)
        for (int i = 0; i < L.nx; i += 2) lattice[L.at(i, j, k)] = 1.0;
    EXPECT_LT(max_interior_diff(L, apply(L, h, c, lattice), std::vector<double>(L.size(), 0.0)), 1e-15);
    EXPECT_LT(max_interior_diff(L, solve_cpu(L, h, c, lattice), std::vector<double>(L.size(), 0.0)), 1e-13)
        << "z_wrap " << wrap;
  }
}

TEST(SpectralKernels, RefusesOperatorsItCannotInvert) {
  const auto c = coefficients(16, 0.0);
  EXPECT_EQ(spectral_unsupported(16, 16, 16, couplings(kWrapPeriodic), c), "");
  EXPECT_NE(spectral_unsupported(24, 16, 16, couplings(kWrapPeriodic), c), "");  // not a power of two
  EXPECT_NE(spectral_unsupported(16, 16, 16, couplings(kZeroFlux), c), "");      // open vertical chains
  ColumnCouplings skew = couplings(kWrapPeriodic);
  skew.ae = 0.8;
  EXPECT_NE(spectral_unsupported(16, 16, 16, skew, c), "");
  auto graded = c;  // varying with height: the direct vertical solve
  graded[kCb * 16 + 3] = graded[kCc * 16 + 3] = 0.31;
  EXPECT_EQ(spectral_unsupported(16, 16, 16, couplings(kWrapPeriodic), graded), "");
  auto vanishing = graded;  // a row the operator's factor d wipes out
  vanishing[kD * 16 + 5] = 0.0;
  EXPECT_NE(spectral_unsupported(16, 16, 16, couplings(kWrapPeriodic), vanishing), "");
  auto mirror12 = coefficients(12, 0.0);  // a mirror cycle of 12 levels
  EXPECT_NE(spectral_unsupported(16, 16, 12, couplings(kWrapMirror), mirror12), "");
  // Lines up to kMaxSpectralLength; vertical cycles up to kMaxSpectralCycle (under lids one cycle of nz).
  EXPECT_EQ(spectral_unsupported(kMaxSpectralLength, 2, 16, couplings(kWrapPeriodic), c), "");
  EXPECT_NE(spectral_unsupported(2 * kMaxSpectralLength, 2, 16, couplings(kWrapPeriodic), c), "");
  const int nz = kMaxSpectralCycle;
  EXPECT_EQ(spectral_unsupported(4, 4, nz, couplings(kWrapMirror), coefficients(nz, 0.0)), "");
  EXPECT_NE(spectral_unsupported(4, 4, 2 * nz, couplings(kWrapMirror), coefficients(2 * nz, 0.0)), "");
  std::vector<double> tab;
  EXPECT_THROW(make_spectral_plan(16, 16, 16, skew, c, tab), std::invalid_argument);
}

TEST(SpectralKernels, CyclesFollowTheVerticalRule) {
  std::vector<double> tab;
  const auto c = coefficients(8, 0.0);
  const SpectralPlan mirror = make_spectral_plan(4, 4, 8, couplings(kWrapMirror), c, tab);
  ASSERT_EQ(mirror.lc, 8);
  const std::vector<double> one_cycle(tab.begin() + mirror.level, tab.begin() + mirror.level + 8);
  EXPECT_EQ(one_cycle, (std::vector<double>{0, 2, 4, 6, 7, 5, 3, 1}));
  const SpectralPlan periodic = make_spectral_plan(4, 4, 8, couplings(kWrapPeriodic), c, tab);
  ASSERT_EQ(periodic.lc, 4);
  const std::vector<double> two_cycles(tab.begin() + periodic.level, tab.begin() + periodic.level + 8);
  EXPECT_EQ(two_cycles, (std::vector<double>{0, 2, 4, 6, 1, 3, 5, 7}));
}

// The shapes of the direct vertical solve's tests: cycles of 2 (nz = 4, periodic), 4, 8, 16 and 32.
const TileLayout kColumnShapes[] = {{16, 8, 32, 2}, {8, 32, 16, 3}, {4, 4, 4, 2}, {32, 4, 8, 2}};

double max_abs(const TileLayout& L, const std::vector<double>& a) {
  return max_interior_diff(L, a, std::vector<double>(L.size(), 0.0));
}

TEST(SpectralColumns, TakesTheDirectSolveOnlyWhereTheVerticalVaries) {
  std::vector<double> tab;
  EXPECT_EQ(make_spectral_plan(8, 8, 16, couplings(kWrapMirror), coefficients(16, 0.0), tab).columns, 0);
  EXPECT_EQ(make_spectral_plan(8, 8, 16, couplings(kWrapMirror), coefficients(16, 0.3), tab).columns, 0);
  for (const VerticalProfile& f : kProfiles) {
    const SpectralPlan p =
        make_spectral_plan(8, 8, 16, couplings(kWrapMirror), varying_coefficients(16, kWrapMirror, f, 0.0), tab);
    EXPECT_EQ(p.columns, 1) << f.name;
    EXPECT_EQ(p.null_chains, 1) << f.name;
    EXPECT_EQ(make_spectral_plan(8, 8, 16, couplings(kWrapMirror), varying_coefficients(16, kWrapMirror, f, 0.2), tab)
                  .null_chains,
              0)
        << f.name;
  }
  EXPECT_EQ(make_spectral_plan(8, 8, 16, couplings(kWrapPeriodic), skewed_coefficients(16, 0.1), tab).columns, 1);
}

TEST(SpectralColumns, InvertsShiftedVaryingOperatorsToRoundOff) {
  for (int wrap : {kWrapPeriodic, kWrapMirror})
    for (const TileLayout& L : kColumnShapes) {
      const auto h = couplings(wrap);
      const auto x = random_field(L, 13);
      std::vector<std::pair<std::string, std::vector<double>>> sets = {{"skewed", skewed_coefficients(L.nz, 0.25)}};
      for (const VerticalProfile& f : kProfiles) sets.push_back({f.name, varying_coefficients(L.nz, wrap, f, 0.25)});
      for (const auto& [name, c] : sets) {
        const auto z = solve_cpu(L, h, c, apply(L, h, c, x));
        EXPECT_LT(max_interior_diff(L, z, x), 1e-12 * max_abs(L, x))
            << name << ", z_wrap " << wrap << ", " << L.nx << "x" << L.ny << "x" << L.nz;
      }
    }
}

// For the singular stratified and anelastic laplc: A M r = r for r in A's range, and M r has no
// component in A's null space (the constants of each lattice (i, j even or odd) on each cycle), as
// the pseudo-inverse.
TEST(SpectralColumns, IsThePseudoInverseOfVaryingLaplacians) {
  for (int wrap : {kWrapPeriodic, kWrapMirror})
    for (const TileLayout& L : kColumnShapes)
      for (const VerticalProfile& f : kProfiles) {
        const auto h = couplings(wrap);
        const auto c = varying_coefficients(L.nz, wrap, f, 0.0);
        const auto r = apply(L, h, c, random_field(L, 17));
        const auto z = solve_cpu(L, h, c, r);
        const std::string what = std::string(f.name) + ", z_wrap " + std::to_string(wrap) + ", " +
                                 std::to_string(L.nx) + "x" + std::to_string(L.ny) + "x" + std::to_string(L.nz);
        EXPECT_LT(max_interior_diff(L, apply(L, h, c, z), r), 1e-12 * max_abs(L, r)) << what;
        const int cycles = wrap == kWrapPeriodic ? 2 : 1;  // laplc's vertical stride 2
        for (int a = 0; a < 4; ++a)
          for (int cycle = 0; cycle < cycles; ++cycle) {
            double sum = 0.0, size = 0.0;
            for (int k = cycle; k < L.nz; k += cycles)
              for (int j = a / 2; j < L.ny; j += 2)
                for (int i = a % 2; i < L.nx; i += 2) {
                  sum += z[L.at(i, j, k)];
                  size += std::fabs(z[L.at(i, j, k)]);
                }
            EXPECT_LT(std::fabs(sum), 1e-13 * size) << what << ", lattice " << a << ", cycle " << cycle;
          }
      }
}

// Transposes a solve (a stage on the slabs after one on the tiles, or back): none where tiles 1 x G
// split the chains, two in either slab kind where the vertical operator is a transform (the tiles run
// it first and last), four where it is solved directly and tiles split x (the vertical solve on the
// tiles between two slab stages).
int transposes(const SlabGeometry& g, const TileLayout& L) {
  int n = 0;
  for (int s = 1; s < spectral_stage_count(g); ++s)
    n += spectral_stage(g, L, s, 0).on_slab != spectral_stage(g, L, s - 1, 0).on_slab;
  return n;
}
TEST(SpectralKernels, TransformsTransposeTwiceOrSplitChains) {
  std::vector<double> tab;
  const SpectralPlan transform = make_spectral_plan(16, 16, 8, couplings(kWrapMirror), coefficients(8, 0.25), tab);
  const SpectralPlan direct = make_spectral_plan(16, 16, 8, couplings(kWrapMirror),
                                                 varying_coefficients(8, kWrapMirror, kProfiles[2], 0.0), tab);
  const TileLayout L{8, 8, 8, 2};
  for (const auto& [tx, ty] : {std::pair{1, 2}, std::pair{2, 1}, std::pair{2, 2}}) {
    EXPECT_EQ(transposes(slab_geometry(transform, tx, ty, 2), L), tx == 1 ? 0 : 2) << tx << "x" << ty;
    EXPECT_EQ(slab_geometry(transform, tx, ty, 2).split_chains, tx == 1) << tx << "x" << ty;
    EXPECT_EQ(transposes(slab_geometry(direct, tx, ty, 2), L), tx == 1 ? 2 : 4) << tx << "x" << ty;
  }
}

// The slab form's stages (spectral_slabs.hpp) on tiles cut from a whole-domain array, in the order
// the graph submits them, run by `Ops` (the CPU or the CUDA stage on host or device arrays); returns
// z's tiles as one whole array. slabs = 0: slab_geometry's choice; chunks: the column flow's.
struct SlabCase {
  int tiles_x, tiles_y, slabs, chunks = 1;
};
template <class Ops>
std::vector<double> slab_solve(Ops& ops, const SpectralPlan& p, const TileLayout& W, const SlabCase& c,
                               const std::vector<double>& r) {
  // (slabs asked for: the slab flows, not split chains)
  SlabGeometry g = slab_geometry(p, c.tiles_x, c.tiles_y, c.chunks, c.slabs == 0);
  if (c.slabs > 0) g.slabs = c.slabs;
  const TileLayout L{W.nx / c.tiles_x, W.ny / c.tiles_y, W.nz, W.halo};
  const int T = g.tiles(), S = g.slabs, C = g.chunks;
  using Array = typename Ops::Array;
  std::vector<Array> rt, zt, to, from, slab_buffers, tile_buffers, exchange;
  for (int t = 0; t < T; ++t) {
    const CellBox b = g.tile(t);
    std::vector<double> tile(L.size(), 0.0);
    for (int k = 0; k < W.nz; ++k)
      for (int j = 0; j < L.ny; ++j)
        for (int i = 0; i < L.nx; ++i) tile[L.at(i, j, k)] = r[W.at(b.x0 + i, b.y0 + j, k)];
    rt.push_back(ops.array(tile));
    zt.push_back(ops.array(std::vector<double>(L.size(), 0.0)));
    tile_buffers.push_back(ops.array(std::vector<double>(b.cells(), 0.0)));
    if (g.split_chains) exchange.push_back(ops.array(std::vector<double>(chain_exchange_doubles(p, g), 0.0)));
    for (int s = 0; s < S; ++s)
      for (int k = 0; k < C; ++k) {
        to.push_back(ops.array(std::vector<double>(g.piece(t, s, k).cells(), 0.0)));
        from.push_back(ops.array(std::vector<double>(g.piece(t, s, k).cells(), 0.0)));
      }
  }
  for (int s = 0; s < S; ++s) slab_buffers.push_back(ops.array(std::vector<double>(g.slab(s).cells(), 0.0)));
  auto of = [&](std::vector<Array>& v, int t, int s, int k) {
    std::vector<double*> q;
    for (int a = t < 0 ? 0 : t; a < (t < 0 ? T : t + 1); ++a)
      for (int b = s < 0 ? 0 : s; b < (s < 0 ? S : s + 1); ++b) q.push_back(ops.ptr(v[(a * S + b) * C + (k < 0 ? 0 : k)]));
    return q;
  };
  long largest = std::max(g.tile(0).cells(), chain_scratch_doubles(p));
  for (int s = 0; s < S; ++s) largest = std::max(largest, g.slab(s).cells());
  auto scratch = ops.array(std::vector<double>(largest, 0.0));
  for (int n = 0; n < spectral_stage_count(g); ++n) {
    const bool on_slab = spectral_stage(g, L, n, 0).on_slab;
    for (int i = 0; i < (on_slab ? S : T); ++i)
      for (int k = 0; k < spectral_stage_chunks(g, n); ++k) {
        const SpectralStage st = spectral_stage(g, L, n, i, k);
        std::vector<double*> in, out;
        if (st.from_tile)
          in = {ops.ptr(rt[i])};
        else if (g.split_chains)  // the way down: every tile's exchange vector
          for (int t = 0; t < T; ++t) in.push_back(ops.ptr(exchange[t]));
        else if (!st.from_buffer)
          in = on_slab ? of(to, -1, i, st.chunk) : of(from, i, -1, st.chunk);
        if (st.to_tile)
          out = {ops.ptr(zt[i])};
        else if (g.split_chains)  // the way up: the tile's exchange vector
          out = {ops.ptr(exchange[i])};
        else if (!st.to_buffer)
          out = on_slab ? of(from, -1, i, st.chunk) : of(to, i, -1, st.chunk);
        ops.stage(p, g, st, in.data(), ops.ptr(scratch), ops.ptr(on_slab ? slab_buffers[i] : tile_buffers[i]),
                  out.data());
      }
  }
  std::vector<double> z(W.size(), 0.0);
  for (int t = 0; t < T; ++t) {
    const CellBox b = g.tile(t);
    const std::vector<double> tile = ops.host(zt[t]);
    for (int k = 0; k < W.nz; ++k)
      for (int j = 0; j < L.ny; ++j)
        for (int i = 0; i < L.nx; ++i) z[W.at(b.x0 + i, b.y0 + j, k)] = tile[L.at(i, j, k)];
  }
  return z;
}

struct CpuSlabOps {
  const double* tab;
  const double* st;
  using Array = std::vector<double>;
  Array array(const std::vector<double>& v) { return v; }
  double* ptr(Array& a) { return a.data(); }
  std::vector<double> host(const Array& a) { return a; }
  void stage(const SpectralPlan& p, const SlabGeometry& g, const SpectralStage& s, double* const* in, double* scratch,
             double* buffer, double* const* out) {
    spectral_stage_cpu(p, g, s, tab, st, in, scratch, buffer, out);
  }
};

struct SlabShape {
  TileLayout W;
  int wrap;
  std::vector<SlabCase> cases;
};
const std::vector<SlabShape> kSlabShapes = {
    // Level slabs (several tiles across x), uneven ones too; column slabs (one tile across x).
    // (column slabs in 1, 2, 4 and 8 chunks of levels, and 3 asked of 8 levels: 2)
    {{16, 8, 8, 2}, kWrapPeriodic, {{2, 2, 0}, {4, 1, 3}, {8, 4, 0}, {1, 2, 0, 4}, {1, 4, 2, 3}, {1, 4, 8, 8}}},
    {{32, 16, 16, 2}, kWrapMirror, {{2, 4, 0}, {2, 1, 5}, {4, 4, 12}, {1, 2, 0}, {1, 8, 0, 2}, {1, 2, 0, 16}}},
    // Column slabs with more pieces than a pass's view takes (kMaxPassPieces): a slab's 32 pieces,
    // a tile's 32, and as many as it takes.
    {{32, 64, 4, 2}, kWrapPeriodic, {{1, 32, 0, 2}, {1, 2, 16}}},
    {{64, 16, 8, 2}, kWrapMirror, {{1, 2, 32, 4}, {1, 8, 2}}},
    // y lines of 512 points in pieces, as the weak runs' slabs hold them (the GPU's wider blocks).
    {{16, 512, 8, 2}, kWrapPeriodic, {{1, 2, 0, 2}, {1, 4, 0, 4}}},
};

// A shape's plan, right-hand side and whole solve (the reference of every slab case).
struct SlabProblem {
  std::vector<double> tab;
  SpectralPlan p;
  std::vector<double> r, whole;
};
SlabProblem slab_problem(const SlabShape& shape, const std::vector<double>& c) {
  SlabProblem q;
  const auto h = couplings(shape.wrap);
  q.p = make_spectral_plan(shape.W.nx, shape.W.ny, shape.W.nz, h, c, q.tab);
  q.r = random_field(shape.W, 11);
  q.whole = solve_cpu(shape.W, h, c, q.r);
  return q;
}
SlabProblem slab_problem(const SlabShape& shape) { return slab_problem(shape, coefficients(shape.W.nz, 0.25)); }
// The same shapes with the singular anelastic stratified laplc (the direct vertical solve).
SlabProblem column_slab_problem(const SlabShape& shape) {
  return slab_problem(shape, varying_coefficients(shape.W.nz, shape.wrap, kProfiles[2], 0.0));
}


void expect_slab_form_is_the_whole_solve(SlabProblem (*problem)(const SlabShape&)) {
  for (const SlabShape& shape : kSlabShapes) {
    const TileLayout& W = shape.W;
    const SlabProblem q = problem(shape);
    const auto& whole = q.whole;
    CpuSlabOps ops{q.tab.data(), kRunning.data()};
    for (const SlabCase& sc : shape.cases) {
      const auto z = slab_solve(ops, q.p, W, sc, q.r);
      for (int k = 0; k < W.nz; ++k)
        for (int j = 0; j < W.ny; ++j)
          for (int i = 0; i < W.nx; ++i)
            ASSERT_EQ(z[W.at(i, j, k)], whole[W.at(i, j, k)])
                << "tiles " << sc.tiles_x << "x" << sc.tiles_y << ", slabs " << sc.slabs << ", cell " << i << "," << j
                << "," << k;
    }
  }
}
TEST(SpectralKernels, SlabFormIsBitwiseTheWholeSolve) { expect_slab_form_is_the_whole_solve(slab_problem); }
TEST(SpectralColumns, SlabFormIsBitwiseTheWholeSolve) { expect_slab_form_is_the_whole_solve(column_slab_problem); }

#if defined(TASKDYCORE_HAVE_CUDA)
// Bitwise equality, reported by its first difference and size (and any CUDA error) rather than by
// dumping the arrays.
void expect_same(const std::vector<double>& cpu, const std::vector<double>& gpu, const std::string& what) {
  ASSERT_EQ(cpu.size(), gpu.size()) << what;
  std::size_t differ = 0, first = 0;
  double most = 0.0;
  for (std::size_t n = 0; n < cpu.size(); ++n)
    if (std::memcmp(&cpu[n], &gpu[n], sizeof(double)) != 0) {
      if (differ++ == 0) first = n;
      most = std::max(most, std::fabs(cpu[n] - gpu[n]));
    }
  EXPECT_EQ(differ, 0u) << what << ": first at " << first << " (cpu " << cpu[first] << ", gpu " << gpu[first]
                        << "), max |diff| " << most << ", CUDA: " << cudaGetErrorString(cudaGetLastError());
}

// The solve and the PCG step (and its skipped form) of one operator on the device against the CPU.
void expect_solve_and_pcg_step_agree(const TileLayout& L, const ColumnCouplings& h, const std::vector<double>& c) {
  std::vector<double> tab;
  const SpectralPlan p = make_spectral_plan(L.nx, L.ny, L.nz, h, c, tab);
  const auto r = random_field(L, 7), q = random_field(L, 8);
  std::vector<double> st(state_doubles(4), 0.0);
  st[state::kAlpha] = 0.375;
  st[state::kMaxIter] = 4;
  tdc_test::DeviceArray dtab(tab), dst(st), dr(r), dq(q), dz(L.size(), 0.0);
  // The solve.
  std::vector<double> z(L.size(), 0.0);
  spectral_solve_cpu(p, tab.data(), st.data(), tile_view(L, r.data()), tile_view(L, z.data()));
  spectral_solve_cuda(p, dtab.p, dst.p, tile_view(L, dr.p), tile_view(L, dz.p), nullptr);
  expect_same(z, dz.host(), "solve, nx " + std::to_string(L.nx));
  // The PCG step: r <- r - alpha q, z = M r, and the partials.
  std::vector<double> rc = r, zc(L.size(), 0.0), out(2 * kMaxSums, 0.0);
  spectral_pcg_precon_cpu(p, L, tab.data(), st.data(), q.data(), rc.data(), zc.data(), out.data());
  tdc_test::DeviceArray dr2(r), dz2(L.size(), 0.0), dout(out.size(), 0.0),
      groups(dot_partial_scratch_bytes(L) / sizeof(double) + 1, 0.0);
  spectral_pcg_precon_cuda(p, L, dtab.p, dst.p, dq.p, dr2.p, dz2.p, groups.p, dout.p, nullptr);
  expect_same(rc, dr2.host(), "pcg step r");
  expect_same(zc, dz2.host(), "pcg step z");
  expect_same(out, dout.host(), "pcg step partials");
  EXPECT_NE(out[0], 0.0);
  EXPECT_EQ(out[kSolveSkippedAt], 0.0);
  EXPECT_NE(zc, std::vector<double>(L.size(), 0.0));
  // When r already meets the stopping test, the step skips its solve (z untouched) on both.
  std::vector<double> past = st;
  past[state::kTolMax] = 1e9;
  tdc_test::DeviceArray dpast(past), dr3(r), dz3(L.size(), 0.0), dout3(out.size(), 0.0);
  std::vector<double> r3 = r, z3(L.size(), 0.0), out3(out.size(), 0.0);
  spectral_pcg_precon_cpu(p, L, tab.data(), past.data(), q.data(), r3.data(), z3.data(), out3.data());
  spectral_pcg_precon_cuda(p, L, dtab.p, dpast.p, dq.p, dr3.p, dz3.p, groups.p, dout3.p, nullptr);
  EXPECT_EQ(out3[kSolveSkippedAt], 1.0);
  EXPECT_EQ(z3, std::vector<double>(L.size(), 0.0));
  expect_same(z3, dz3.host(), "skipped step z");
  expect_same(r3, dr3.host(), "skipped step r");
  expect_same(out3, dout3.host(), "skipped step partials");
}

// The solve and the PCG step on the device against the CPU, on shapes with one partial block, many
// blocks, and each vertical rule.
TEST(SpectralCpuCudaAgreement, SolveAndPcgStep) {
  if (!tdc_test::have_device())
    GTEST_SKIP() << "no CUDA device on this machine: run the agreement tests on the GPU machine";
  struct Shape {
    TileLayout L;
    int wrap;
    double shift;
  };
  for (const Shape& s :
       {Shape{{32, 4, 8, 2}, kWrapPeriodic, 0.0}, Shape{{128, 32, 64, 2}, kWrapMirror, 0.0},
        Shape{{64, 64, 16, 3}, kWrapPeriodic, 0.5}, Shape{{16, 256, 8, 2}, kWrapMirror, 0.1},
        Shape{{kMaxSpectralLength, 4, 8, 2}, kWrapMirror, 0.0}, Shape{{8, 1024, 4, 2}, kWrapPeriodic, 0.0},
        Shape{{4, 8, 1024, 2}, kWrapPeriodic, 0.2}, Shape{{4, kMaxSpectralLength, 4, 2}, kWrapPeriodic, 0.3},
        Shape{{8, 512, 4, 2}, kWrapPeriodic, 0.0}, Shape{{4, 4, 256, 2}, kWrapMirror, 0.0},
        Shape{{4, 4, 1024, 2}, kWrapMirror, 0.1}})
    expect_solve_and_pcg_step_agree(s.L, couplings(s.wrap), coefficients(s.L.nz, s.shift));
}
// The same with the direct vertical solve: varying levels (singular and shifted), a nonsymmetric
// vertical part, cycles of 2 (nz = 4, periodic) and of 1024 levels.
TEST(SpectralCpuCudaAgreement, ColumnSolveAndPcgStep) {
  if (!tdc_test::have_device())
    GTEST_SKIP() << "no CUDA device on this machine: run the agreement tests on the GPU machine";
  expect_solve_and_pcg_step_agree({32, 4, 8, 2}, couplings(kWrapPeriodic),
                                  varying_coefficients(8, kWrapPeriodic, kProfiles[0], 0.0));
  expect_solve_and_pcg_step_agree({128, 32, 64, 2}, couplings(kWrapMirror),
                                  varying_coefficients(64, kWrapMirror, kProfiles[1], 0.0));
  expect_solve_and_pcg_step_agree({64, 64, 16, 3}, couplings(kWrapPeriodic),
                                  varying_coefficients(16, kWrapPeriodic, kProfiles[2], 0.5));
  expect_solve_and_pcg_step_agree({16, 8, 4, 2}, couplings(kWrapPeriodic), skewed_coefficients(4, 0.1));
  expect_solve_and_pcg_step_agree({4, 4, 1024, 2}, couplings(kWrapMirror),
                                  varying_coefficients(1024, kWrapMirror, kProfiles[2], 0.0));
  expect_solve_and_pcg_step_agree({kMaxSpectralLength, 2, 64, 2}, couplings(kWrapMirror),
                                  varying_coefficients(64, kWrapMirror, kProfiles[1], 0.0));
}

struct CudaSlabOps {
  const double* tab;
  const double* st;
  using Array = std::unique_ptr<tdc_test::DeviceArray>;
  Array array(const std::vector<double>& v) { return std::make_unique<tdc_test::DeviceArray>(v); }
  double* ptr(Array& a) { return a->p; }
  std::vector<double> host(const Array& a) { return a->host(); }
  void stage(const SpectralPlan& p, const SlabGeometry& g, const SpectralStage& s, double* const* in, double* scratch,
             double* buffer, double* const* out) {
    spectral_stage_cuda(p, g, s, tab, st, in, scratch, buffer, out, nullptr);
  }
};

// The slab form's steps on the device against the whole CPU solve.
void expect_device_slab_form_is_the_whole_solve(SlabProblem (*problem)(const SlabShape&)) {
  for (const SlabShape& shape : kSlabShapes) {
    const TileLayout& W = shape.W;
    const SlabProblem q = problem(shape);
    tdc_test::DeviceArray dtab(q.tab), dst(kRunning);
    CudaSlabOps ops{dtab.p, dst.p};
    for (const SlabCase& sc : shape.cases) {
      const std::vector<double> z = slab_solve(ops, q.p, W, sc, q.r), &w = q.whole;
      std::vector<double> zi, wi;  // the interiors
      for (int k = 0; k < W.nz; ++k)
        for (int j = 0; j < W.ny; ++j)
          for (int i = 0; i < W.nx; ++i) {
            zi.push_back(z[W.at(i, j, k)]);
            wi.push_back(w[W.at(i, j, k)]);
          }
      expect_same(wi, zi, "slab form, tiles " + std::to_string(sc.tiles_x) + "x" + std::to_string(sc.tiles_y));
    }
  }
}
TEST(SpectralCpuCudaAgreement, SlabForm) {
  if (!tdc_test::have_device())
    GTEST_SKIP() << "no CUDA device on this machine: run the agreement tests on the GPU machine";
  expect_device_slab_form_is_the_whole_solve(slab_problem);
}
TEST(SpectralCpuCudaAgreement, ColumnSlabForm) {
  if (!tdc_test::have_device())
    GTEST_SKIP() << "no CUDA device on this machine: run the agreement tests on the GPU machine";
  expect_device_slab_form_is_the_whole_solve(column_slab_problem);
}
#endif

}  // namespace
