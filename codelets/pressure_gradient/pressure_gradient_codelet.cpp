#include "../common/codelet.hpp"
#include "pressure_gradient.hpp"

namespace tdc {
namespace {

struct PressureGradient : CodeletSpec<CentredArgs, STARPU_R, STARPU_RW, STARPU_RW, STARPU_RW> {  // p, u, v, w
  static constexpr const char* name = "pressure_gradient";
  static void cpu(const Args& a, Buffers b) {
    pressure_gradient_cpu(a, b.block(0), b.block(1), b.block(2), b.block(3));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    pressure_gradient_cuda(a, b.block(0), b.block(1), b.block(2), b.block(3), s);
  };
};

// p, three velocities from, three to
struct PressureGradientFrom
    : CodeletSpec<CentredArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_W, STARPU_W> {
  static constexpr const char* name = "pressure_gradient_from";
  static void cpu(const Args& a, Buffers b) {
    const double* const v0[3] = {b.block(1), b.block(2), b.block(3)};
    double* const v[3] = {b.block(4), b.block(5), b.block(6)};
    pressure_gradient_from_cpu(a, b.block(0), v0, v);
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    const double* const v0[3] = {b.block(1), b.block(2), b.block(3)};
    double* const v[3] = {b.block(4), b.block(5), b.block(6)};
    pressure_gradient_from_cuda(a, b.block(0), v0, v, s);
  };
};

struct Divergence : CodeletSpec<CentredArgs, STARPU_R, STARPU_R, STARPU_R, STARPU_W> {  // u, v, w, f
  static constexpr const char* name = "divergence";
  static void cpu(const Args& a, Buffers b) { divergence_cpu(a, b.block(0), b.block(1), b.block(2), b.block(3)); }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    divergence_cuda(a, b.block(0), b.block(1), b.block(2), b.block(3), s);
  };
};

}  // namespace

void insert_pressure_gradient(const CentredArgs& a, starpu_data_handle_t p, const starpu_data_handle_t vel[3],
                              int priority) {
  CodeletOf<PressureGradient>::insert(a, {p, vel[0], vel[1], vel[2]}, {priority});
}

void insert_pressure_gradient_from(const CentredArgs& a, starpu_data_handle_t p, const starpu_data_handle_t from[3],
                                   const starpu_data_handle_t vel[3], int priority) {
  CodeletOf<PressureGradientFrom>::insert(a, {p, from[0], from[1], from[2], vel[0], vel[1], vel[2]}, {priority});
}

void insert_divergence(const CentredArgs& a, const starpu_data_handle_t vel[3], starpu_data_handle_t f, int priority) {
  CodeletOf<Divergence>::insert(a, {vel[0], vel[1], vel[2], f}, {priority});
}

}  // namespace tdc
