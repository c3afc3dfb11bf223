#include "../common/codelet.hpp"
#include "anelastic.hpp"

namespace tdc {
namespace {

struct MassCourant : CodeletSpec<MassCourantArgs, STARPU_R, STARPU_RW, STARPU_RW, STARPU_RW> {  // env, c1..c3
  static constexpr const char* name = "mass_courant";
  static void cpu(const Args& a, Buffers b) { mass_courant_cpu(a, b.vector(0), b.block(1), b.block(2), b.block(3)); }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    mass_courant_cuda(a, b.vector(0), b.block(1), b.block(2), b.block(3), s);
  };
};

struct MassDivergence : CodeletSpec<CentredArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W> {  // env, u, v, w, f
  static constexpr const char* name = "mass_divergence";
  static void cpu(const Args& a, Buffers b) {
    mass_divergence_cpu(a, b.vector(0), b.block(1), b.block(2), b.block(3), b.block(4));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    mass_divergence_cuda(a, b.vector(0), b.block(1), b.block(2), b.block(3), b.block(4), s);
  };
};

}  // namespace

void insert_mass_courant(const MassCourantArgs& a, starpu_data_handle_t env, const starpu_data_handle_t c[3],
                         int priority) {
  CodeletOf<MassCourant>::insert(a, {env, c[0], c[1], c[2]}, {priority});
}

void insert_mass_divergence(const CentredArgs& a, starpu_data_handle_t env, const starpu_data_handle_t vel[3],
                            starpu_data_handle_t f, int priority) {
  CodeletOf<MassDivergence>::insert(a, {env, vel[0], vel[1], vel[2], f}, {priority});
}

}  // namespace tdc
