// The march built for x86-64-v3 (AVX2), the kernels library's baseline, and the run-time choice
// between it and the AVX-512 build.
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <vector>

#define TDC_MARCH_NS avx2
#include "mpdata_march_impl.hpp"
#undef TDC_MARCH_NS

namespace tdc {
namespace mpdata {

namespace avx512 {
void step2_march(const Cells& s, const Options& o, Box box, const double* psi0, const double* c1, const double* c2,
                 const double* c3, const double* g, double* out, const MarchWork& work);
}

namespace {
// AVX-512 where the CPU has it (x86-64-v4's set), unless TASKDYCORE_MARCH_ISA=avx2 asks for the
// AVX2 build (for comparisons: the results are bitwise the same).
bool has_avx512() {
  __builtin_cpu_init();
  const char* isa = std::getenv("TASKDYCORE_MARCH_ISA");
  if (isa && std::string(isa) == "avx2") return false;
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512cd");
}
const bool kAvx512 = has_avx512();

// The storage of one worker thread, reused across calls.
struct Workspace {
  std::unique_ptr<double, void (*)(void*)> planes{nullptr, std::free};
  std::size_t n = 0;
  std::vector<char> done;
  MarchWork get(std::size_t doubles, int nz) {
    if (doubles > n) {
      planes.reset(static_cast<double*>(std::aligned_alloc(64, (doubles * sizeof(double) + 63) / 64 * 64)));
      if (!planes) throw std::bad_alloc();
      n = doubles;
    }
    done.resize(3 * std::size_t(nz));
    return {planes.get(), done.data()};
  }
};
}  // namespace

const char* march_isa() { return kAvx512 ? "avx512" : "avx2"; }

void step2_march_cpu(const Cells& s, const Options& o, Box box, const double* psi0, const double* c1, const double* c2,
                     const double* c3, const double* g, double* out) {
  if (box.empty()) return;
  thread_local Workspace ws;
  const MarchWork w = ws.get(MarchPlan::doubles(box), s.L.nz);
  if (kAvx512)
    avx512::step2_march(s, o, box, psi0, c1, c2, c3, g, out, w);
  else
    avx2::step2_march(s, o, box, psi0, c1, c2, c3, g, out, w);
}

}  // namespace mpdata
}  // namespace tdc
