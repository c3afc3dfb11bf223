// The iord = 2 MPDATA step on the CPU as a march up the levels (CPU only, no StarPU here).
//
// The staged kernels sweep the whole tile once per stage, so every intermediate (psi1, three
// antidiffusive velocities, two limiter factors) goes out to memory and comes back: a 38 × 38 × 64
// tile holds 0.7 MB per array, more than a core's L2 for the set. The march computes the stages
// level by level with a lag (donor cell on level m, velocities on m - 1, limiter factors on m - 2,
// the corrective pass on m - 3), keeping each intermediate in a ring of a few planes that stays in
// L1/L2; only psi0, c1..c3 (and G) are read from the tile and psi written. Each stage is a plain loop
// along x over one plane that GCC vectorises (AVX2 for x86-64-v3; AVX-512 where the CPU has it, chosen
// at run time). It calls the same formulae (mpdata_formulae.hpp) on the same values as the staged
// kernels, and each plane of each intermediate is computed once (periodic and rigid wraps included),
// so the result is bitwise theirs and the GPU's.
#pragma once
#include "mpdata_stages.hpp"

namespace tdc {
namespace mpdata {

// Whether the march handles these options (iord = 2; otherwise the staged kernels run).
inline bool march_supported(const Options& o) { return o.iord == 2; }

// The march's storage: ring planes of the box grown by 2 (+1 for the upper faces), each rounded up to
// whole cache lines; D1, DV, DB ring slots for psi1, each velocity and each limiter factor (the levels
// a plane is read on after it is written), plus S slots each for the lowest and highest levels.
struct MarchPlan {
  static constexpr int R1 = 2, D1 = 5, DV = 3, DB = 3, S = 3;
  static int row(Box b) { return b.width() + 2 * R1 + 1; }
  static std::ptrdiff_t plane(Box b) { return (std::ptrdiff_t(row(b)) * (b.height() + 2 * R1 + 1) + 7) / 8 * 8; }
  static std::size_t doubles(Box b) {
    return std::size_t(plane(b)) * ((D1 + 2 * S) + 3 * (DV + 2 * S) + 2 * (DB + 2 * S));
  }
};
struct MarchWork {
  double* planes;  // MarchPlan::doubles(box), 64-byte aligned
  char* done;      // 3 nz flags
};

// out = psi at the end of the step on the cells of `box`; g null where G = 1 (not read).
void step2_march_cpu(const Cells& s, const Options& o, Box box, const double* psi0, const double* c1, const double* c2,
                     const double* c3, const double* g, double* out);

// Which instruction set the march runs with on this CPU: "avx512" or "avx2".
const char* march_isa();

}  // namespace mpdata
}  // namespace tdc
