#include "../common/codelet.hpp"
#include "stratification.hpp"

namespace tdc {
namespace {

struct EnvironmentSource : CodeletSpec<ScaledArgs, STARPU_R, STARPU_R, STARPU_RW> {  // env, w, theta
  static constexpr const char* name = "environment_source";
  static void cpu(const Args& a, Buffers b) { environment_source_cpu(a, b.vector(0), b.block(1), b.block(2)); }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    environment_source_cuda(a, b.vector(0), b.block(1), b.block(2), s);
  };
};

struct ImplicitBuoyancy : CodeletSpec<ScaledArgs, STARPU_R, STARPU_R, STARPU_RW> {  // env, theta, w
  static constexpr const char* name = "implicit_buoyancy";
  static void cpu(const Args& a, Buffers b) { implicit_buoyancy_cpu(a, b.vector(0), b.block(1), b.block(2)); }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    implicit_buoyancy_cuda(a, b.vector(0), b.block(1), b.block(2), s);
  };
};

struct HeightBuoyancy : CodeletSpec<ScaledArgs, STARPU_R, STARPU_R, STARPU_RW> {  // env, theta, w
  static constexpr const char* name = "height_buoyancy";
  static void cpu(const Args& a, Buffers b) { height_buoyancy_cpu(a, b.vector(0), b.block(1), b.block(2)); }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    height_buoyancy_cuda(a, b.vector(0), b.block(1), b.block(2), s);
  };
};

// env, p, u, v, w
struct StratifiedGradient : CodeletSpec<CentredArgs, STARPU_R, STARPU_R, STARPU_RW, STARPU_RW, STARPU_RW> {
  static constexpr const char* name = "stratified_gradient";
  static void cpu(const Args& a, Buffers b) {
    stratified_gradient_cpu(a, b.vector(0), b.block(1), b.block(2), b.block(3), b.block(4));
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    stratified_gradient_cuda(a, b.vector(0), b.block(1), b.block(2), b.block(3), b.block(4), s);
  };
};

}  // namespace

void insert_environment_source(const ScaledArgs& a, starpu_data_handle_t env, starpu_data_handle_t w,
                               starpu_data_handle_t theta, int priority) {
  CodeletOf<EnvironmentSource>::insert(a, {env, w, theta}, {priority});
}

void insert_implicit_buoyancy(const ScaledArgs& a, starpu_data_handle_t env, starpu_data_handle_t theta,
                              starpu_data_handle_t w, int priority) {
  CodeletOf<ImplicitBuoyancy>::insert(a, {env, theta, w}, {priority});
}

void insert_height_buoyancy(const ScaledArgs& a, starpu_data_handle_t env, starpu_data_handle_t theta,
                            starpu_data_handle_t w, int priority) {
  CodeletOf<HeightBuoyancy>::insert(a, {env, theta, w}, {priority});
}

void insert_stratified_gradient(const CentredArgs& a, starpu_data_handle_t env, starpu_data_handle_t p,
                                const starpu_data_handle_t vel[3], int priority) {
  CodeletOf<StratifiedGradient>::insert(a, {env, p, vel[0], vel[1], vel[2]}, {priority});
}

}  // namespace tdc
