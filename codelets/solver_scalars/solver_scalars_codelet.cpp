#include <stdexcept>

#include "../common/codelet.hpp"
#include "solver_scalars.hpp"

namespace tdc {
namespace {

// Buffers: state (W or RW), then the partial vectors (partial_count: one per tile).
struct SolverScalars : CodeletSpec<ScalarsArgs> {
  static constexpr const char* name = "solver_scalars";
  static constexpr bool variable_buffers = true;
  static void gather(const Args& a, Buffers b, const double** p) {
    for (int t = 0; t < partial_count(a); ++t) p[t] = b.vector(1 + t);
  }
  static void cpu(const Args& a, Buffers b) {
    const double* p[kMaxCombineTiles];
    gather(a, b, p);
    solver_scalars_cpu(a, b.vector(0), p);
  }
  static constexpr auto cuda = [](const Args& a, Buffers b, auto s) {
    const double* p[kMaxCombineTiles];
    gather(a, b, p);
    solver_scalars_cuda(a, b.vector(0), p, s);
  };
};

}  // namespace

void insert_solver_scalars(const ScalarsArgs& a, starpu_data_handle_t state,
                           const std::vector<starpu_data_handle_t>& partials) {
  if (partials.size() != std::size_t(partial_count(a)) || partials.size() > std::size_t(kMaxCombineTiles) ||
      (a.tiles < 1 && a.op != ScalarOp::Reset))
    throw std::logic_error("solver_scalars: tile count does not match its partials");
  std::vector<starpu_data_descr> d;
  d.push_back({state, a.op == ScalarOp::Reset ? STARPU_W : STARPU_RW});
  for (starpu_data_handle_t h : partials) d.push_back({h, STARPU_R});
  CodeletOf<SolverScalars>::insert(a, d, {kPrioHalo});
}

}  // namespace tdc
