#include <vector>

#include "mpdata_fused.hpp"
#include "mpdata_fused_block.hpp"

namespace tdc {
namespace mpdata {
namespace {

// One CPU thread plays the whole block: regions are plain loops (x innermost), no barriers needed.
struct CpuExec {
  template <class F>
  void region(int i0, int j0, int w, int h, F f) const {
    for (int j = j0; j < j0 + h; ++j)
      for (int i = i0; i < i0 + w; ++i) f(i, j);
  }
  void sync() const {}
};

template <bool FCT, int TX, int TY>
void run(const Cells& s, const Options& o, Box box, const double* psi0, const double* c1, const double* c2,
         const double* c3, const double* g, double* out) {
  thread_local std::vector<double> rings;  // the block's "shared memory", reused across calls
  rings.resize(fused::Plan<FCT, TX, TY>::doubles);
  const fused::Geometry geo{s.L, s.zb == ZBoundary::Periodic};
  for (int J0 = box.j0; J0 < box.j1; J0 += TY)
    for (int I0 = box.i0; I0 < box.i1; I0 += TX)
      fused::fused_block<FCT, TX, TY>(CpuExec{}, geo, o, box, I0, J0, psi0, c1, c2, c3, g, out, rings.data());
}

}  // namespace

void step2_fused_cpu(const Cells& s, const Options& o, Box box, const double* psi0, const double* c1, const double* c2,
                     const double* c3, const double* g, double* out) {
  if (box.empty()) return;
  if (o.fct)
    run<true, 32, 8>(s, o, box, psi0, c1, c2, c3, g, out);
  else
    run<false, 32, 8>(s, o, box, psi0, c1, c2, c3, g, out);
}

}  // namespace mpdata
}  // namespace tdc
