// The plain work of the MPDATA step codelets (no StarPU here), written once for CPU and CUDA:
// Stages picks the kernels, Copy the strip copy. Used by the codelets and by the benchmark's
// direct (graph-free) runner, so both run exactly the same kernels.
#pragma once
#include "../halo_pack/halo_pack_plan.hpp"
#include "mpdata_pipeline.hpp"

namespace tdc {

struct MpdataTaskArgs {
  TileLayout layout;
  mpdata::Options options;
};

// Whether a tile's step is split into border and body work: asked for, and the tile has a body.
inline bool split_border_body(const TileLayout& L, bool requested) {
  return requested && !mpdata::body_region(L).empty();
}

// Scratch doubles the border and body work need (one buffer per worker).
inline std::size_t mpdata_border_scratch_doubles(const MpdataTaskArgs& a) {
  return (mpdata::scratch_plan(a.options).arrays() + 1) * a.layout.size();
}
inline std::size_t mpdata_body_scratch_doubles(const MpdataTaskArgs& a) {
  return std::max<std::size_t>(1, mpdata::scratch_plan(a.options).arrays()) * a.layout.size();
}

// The cells the neighbours need, computed into the scratch's last array and packed into the strips.
template <class Stages, class Copy>
void mpdata_border_work(const MpdataTaskArgs& a, const mpdata::StepInputs& in, double* scratch, double* const strips[4],
                        const Stages& stages, const Copy& copy) {
  const mpdata::Cells cells{a.layout, a.options.zb};
  const mpdata::Scratch t = mpdata::carve_scratch(a.options, a.layout, scratch);
  double* out = scratch + mpdata::scratch_plan(a.options).arrays() * a.layout.size();
  Box bands[4];
  const int n = mpdata::border_regions(a.layout, bands);
  for (int r = 0; r < n; ++r) mpdata::advance_region(stages, cells, a.options, bands[r], in, t, out);
  copy(halo_pack_plan(a.layout, out, strips));
}

// The other cells, written into the new field.
template <class Stages>
void mpdata_body_work(const MpdataTaskArgs& a, const mpdata::StepInputs& in, double* scratch, double* psi_new,
                      const Stages& stages) {
  const mpdata::Scratch t = mpdata::carve_scratch(a.options, a.layout, scratch);
  mpdata::advance_region(stages, mpdata::Cells{a.layout, a.options.zb}, a.options, mpdata::body_region(a.layout), in, t,
                         psi_new);
}

// The whole tile, then its strips.
template <class Stages, class Copy>
void mpdata_tile_work(const MpdataTaskArgs& a, const mpdata::StepInputs& in, double* scratch, double* psi_new,
                      double* const strips[4], const Stages& stages, const Copy& copy) {
  const mpdata::Scratch t = mpdata::carve_scratch(a.options, a.layout, scratch);
  const Box all{0, a.layout.nx, 0, a.layout.ny};
  mpdata::advance_region(stages, mpdata::Cells{a.layout, a.options.zb}, a.options, all, in, t, psi_new);
  copy(halo_pack_plan(a.layout, psi_new, strips));
}

struct CpuCopy {
  void operator()(const CopyList& l) const { strided_copies_cpu(l); }
};
#if defined(TASKDYCORE_HAVE_CUDA)
struct CudaCopy {
  cudaStream_t stream;
  void operator()(const CopyList& l) const { strided_copies_cuda(l, stream); }
};
#endif

}  // namespace tdc
