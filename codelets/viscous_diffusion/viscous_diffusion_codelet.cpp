#include "../common/codelet.hpp"
#include "viscous_diffusion.hpp"

namespace tdc {
namespace {

// three sources, three destinations
struct ViscousDiffusion : CodeletSpec<DiffusionArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_RW, STARPU_RW, STARPU_RW> {
  static constexpr const char* name = "viscous_diffusion";
  static void cpu(const Args& a, Buffers b) {
    const double* src[3] = {b.block(0), b.block(1), b.block(2)};
    double* dst[3] = {b.block(3), b.block(4), b.block(5)};
    viscous_diffusion_cpu(a, src, dst);
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    const double* src[3] = {b.block(0), b.block(1), b.block(2)};
    double* dst[3] = {b.block(3), b.block(4), b.block(5)};
    viscous_diffusion_cuda(a, src, dst, s);
  };
};

struct ScalarDiffusion : CodeletSpec<DiffusionArgs, STARPU_R, STARPU_RW> {  // source, destination
  static constexpr const char* name = "scalar_diffusion";
  static void cpu(const Args& a, Buffers b) { scalar_diffusion_cpu(a, b.block(0), b.block(1)); }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    scalar_diffusion_cuda(a, b.block(0), b.block(1), s);
  };
};

}  // namespace

void insert_viscous_diffusion(const DiffusionArgs& a, const starpu_data_handle_t src[3],
                              const starpu_data_handle_t dst[3], int priority) {
  CodeletOf<ViscousDiffusion>::insert(a, {src[0], src[1], src[2], dst[0], dst[1], dst[2]}, {priority});
}

void insert_scalar_diffusion(const DiffusionArgs& a, starpu_data_handle_t src, starpu_data_handle_t dst, int priority) {
  CodeletOf<ScalarDiffusion>::insert(a, {src, dst}, {priority});
}

}  // namespace tdc
