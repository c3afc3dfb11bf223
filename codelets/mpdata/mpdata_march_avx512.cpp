// The march built for x86-64-v4 (AVX-512, 512-bit vectors); run only where the CPU has it
// (mpdata_march_avx2.cpp chooses).
#define TDC_MARCH_NS avx512
#include "mpdata_march_impl.hpp"

namespace tdc {
namespace mpdata {
namespace avx512 {
// Out of line, for the dispatcher.
void step2_march(const Cells& s, const Options& o, Box box, const double* psi0, const double* c1, const double* c2,
                 const double* c3, const double* g, double* out, const MarchWork& work);
}  // namespace avx512
}  // namespace mpdata
}  // namespace tdc
