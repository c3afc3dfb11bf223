#include "../common/strided_copy.hpp"
#include "../solver_scalars/solver_state.hpp"
#include "spectral_precon_kernel.hpp"
#include "spectral_slabs.hpp"
#include "spectral_slabs_copies.hpp"

namespace tdc {
void spectral_stage_cuda(const SpectralPlan& p, const SlabGeometry& g, const SpectralStage& s, const double* tab,
                         const double* st, const double* const* in, double* scratch, double* buffer,
                         double* const* out, cudaStream_t stream) {
  const StageWork w = stage_work(p, g, s, in, scratch, buffer, out);
  strided_copies_cuda(w.gather, stream, st + state::kDone, double(p.skip_from));
  for (int n = 0; n < s.n_passes; ++n)
    spectral_pass_cuda(w.plan, tab, st, s.passes[n], n == 0 ? w.first_in : w.work,
                       n == s.n_passes - 1 ? w.last_out : w.work, stream, &w.chains);
  strided_copies_cuda(w.scatter, stream, st + state::kDone, double(p.skip_from));
}

}  // namespace tdc
