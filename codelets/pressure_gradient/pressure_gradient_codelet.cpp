#include "../common/codelet.hpp"
#include "pressure_gradient.hpp"

namespace tdc {
namespace {

struct PressureGradient : CodeletSpec {
  using Args = CentredArgs;
  static constexpr const char* name = "pressure_gradient";
  static constexpr auto modes = access(R, RW, RW, RW);  // p, u, v, w
  static void cpu(const Args& a, Buffers b) { pressure_gradient_cpu(a, b.block(0), b.block(1), b.block(2), b.block(3)); }
  template <class Stream>
  static void cuda(const Args& a, Buffers b, Stream s) {
    pressure_gradient_cuda(a, b.block(0), b.block(1), b.block(2), b.block(3), s);
  }
};

struct PressureGradientFrom : CodeletSpec {
  using Args = CentredArgs;
  static constexpr const char* name = "pressure_gradient_from";
  static constexpr auto modes = access(R, R, R, R, W, W, W);  // p, three velocities from, three to
  static void cpu(const Args& a, Buffers b) {
    const double* const v0[3] = {b.block(1), b.block(2), b.block(3)};
    double* const v[3] = {b.block(4), b.block(5), b.block(6)};
    pressure_gradient_from_cpu(a, b.block(0), v0, v);
  }
  template <class Stream>
  static void cuda(const Args& a, Buffers b, Stream s) {
    const double* const v0[3] = {b.block(1), b.block(2), b.block(3)};
    double* const v[3] = {b.block(4), b.block(5), b.block(6)};
    pressure_gradient_from_cuda(a, b.block(0), v0, v, s);
  }
};

struct Divergence : CodeletSpec {
  using Args = CentredArgs;
  static constexpr const char* name = "divergence";
  static constexpr auto modes = access(R, R, R, W);  // u, v, w, f
  static void cpu(const Args& a, Buffers b) { divergence_cpu(a, b.block(0), b.block(1), b.block(2), b.block(3)); }
  template <class Stream>
  static void cuda(const Args& a, Buffers b, Stream s) {
    divergence_cuda(a, b.block(0), b.block(1), b.block(2), b.block(3), s);
  }
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
