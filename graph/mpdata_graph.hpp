// The task graph of one MPDATA advection step over all tiles:
//   [scale_courant] -> mpdata_border (high priority, writes the halo strips)
//                   -> mpdata_body   (the rest of the tile)
//                   -> halo_unpack   (needs the neighbours' strips and this tile's body)
// or, without overlap, mpdata_tile -> halo_unpack. Nothing waits on the host.
#pragma once
#include "../codelets/mpdata/mpdata_step.hpp"
#include "runtime/tiled_field.hpp"

namespace tdc {

struct MpdataFields {
  TiledField* psi[2];            // double buffer: step n reads psi[n % 2] and writes psi[(n + 1) % 2]
  TiledField *c1, *c2, *c3, *g;  // Courant numbers (mass flux) and G, valid on the ghost ring too
  TiledField *s1, *s2, *s3;      // spatial pattern of a time-dependent flow (null when steady)
  TileStrips* strips;
};

class MpdataGraph {
 public:
  MpdataGraph(const Decomposition& d, const mpdata::Options& o, bool overlap);
  // Submits step `n`; `courant_factor` scales the spatial pattern (time-dependent flows).
  void submit_step(const MpdataFields& f, long n, double courant_factor) const;
  // The step without its halo_unpack: the caller unpacks psi[(n + 1) % 2] from f.strips itself
  // (submit_halo_unpack), with other fields in the same task.
  void submit_advance(const MpdataFields& f, long n, double courant_factor) const;
  // Tasks per step and tile, for the submission window.
  int tasks_per_tile() const { return overlap_ ? 3 : 2; }

 private:
  const Decomposition& d_;
  MpdataTaskArgs args_;
  bool overlap_;
  ScratchBuffer border_scratch_, body_scratch_;
};

}  // namespace tdc
