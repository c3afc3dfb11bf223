#include "../common/codelet.hpp"
#include "absorber.hpp"

namespace tdc {
namespace {

struct Absorber : CodeletSpec<AbsorberArgs, STARPU_R, STARPU_R, STARPU_RW> {  // env, psi^n, psi~
  static constexpr const char* name = "absorber";
  static void cpu(const Args& a, Buffers b) { absorber_cpu(a, b.vector(0), b.block(1), b.block(2)); }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    absorber_cuda(a, b.vector(0), b.block(1), b.block(2), s);
  };
};

struct AbsorberInPlace : CodeletSpec<AbsorberArgs, STARPU_R, STARPU_RW> {  // env, psi
  static constexpr const char* name = "absorber_in_place";
  static void cpu(const Args& a, Buffers b) { absorber_cpu(a, b.vector(0), b.block(1), b.block(1)); }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    absorber_cuda(a, b.vector(0), b.block(1), b.block(1), s);
  };
};

}  // namespace

void insert_absorber(const AbsorberArgs& a, starpu_data_handle_t env, starpu_data_handle_t src,
                     starpu_data_handle_t dst, int priority) {
  CodeletOf<Absorber>::insert(a, {env, src, dst}, {priority});
}

void insert_absorber_in_place(const AbsorberArgs& a, starpu_data_handle_t env, starpu_data_handle_t psi, int priority) {
  CodeletOf<AbsorberInPlace>::insert(a, {env, psi}, {priority});
}

}  // namespace tdc
