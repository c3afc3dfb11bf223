#include "../common/strided_copy.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "spectral_precon_kernel.hpp"
#include "spectral_slabs.hpp"
#include "spectral_slabs_copies.hpp"

namespace tdc {
namespace {

// The copies in launches of kMaxCopies; none runs when the state says done >= skip_from.
void run_cuda(const std::vector<StridedCopy>& copies, const SpectralPlan& p, const double* st, cudaStream_t stream) {
  CopyList list;
  for (const StridedCopy& c : copies) {
    list.add(c);
    if (list.n == kMaxCopies) {
      strided_copies_cuda(list, stream, st + state::kDone, double(p.skip_from));
      list.n = 0;
    }
  }
  strided_copies_cuda(list, stream, st + state::kDone, double(p.skip_from));
}

}  // namespace

void spectral_stage_cuda(const SpectralPlan& p, const SlabGeometry& g, const SpectralStage& s, const double* tab,
                         const double* st, const double* const* in, double* scratch, double* const* out,
                         cudaStream_t stream) {
  const StageWork w = stage_work(p, g, s, in, scratch, out);
  run_cuda(w.gather, p, st, stream);
  for (int n = 0; n < s.n_passes; ++n)
    spectral_pass_cuda(w.plan, tab, st, s.passes[n], n == 0 ? w.first_in : w.work,
                       n == s.n_passes - 1 ? w.last_out : w.work, stream);
  run_cuda(w.scatter, p, st, stream);
}

}  // namespace tdc
