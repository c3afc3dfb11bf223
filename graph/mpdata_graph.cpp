#include "mpdata_graph.hpp"

#include "../codelets/scale_courant/scale_courant.hpp"
#include "halo_exchange.hpp"

namespace tdc {

MpdataGraph::MpdataGraph(const Decomposition& d, const mpdata::Options& o, bool overlap)
    : d_(d),
      args_{d.layout(), o},
      overlap_(split_border_body(d.layout(), overlap)),
      border_scratch_(mpdata_border_scratch_bytes(args_)),
      body_scratch_(mpdata_body_scratch_bytes(args_)) {}

void MpdataGraph::submit_step(const MpdataFields& f, long n, double courant_factor) const {
  submit_advance(f, n, courant_factor);
  submit_halo_unpack(d_, *f.psi[(n + 1) % 2], *f.strips);
}

void MpdataGraph::submit_advance(const MpdataFields& f, long n, double courant_factor) const {
  TiledField& psi0 = *f.psi[n % 2];
  TiledField& psi1 = *f.psi[(n + 1) % 2];
  for (int t = 0; t < d_.tiles(); ++t) {
    const SendAhead* send = f.strips->sends(t);
    if (f.s1) {
      const starpu_data_handle_t s[3] = {f.s1->handle(t), f.s2->handle(t), f.s3->handle(t)};
      const starpu_data_handle_t c[3] = {f.c1->handle(t), f.c2->handle(t), f.c3->handle(t)};
      insert_scale_courant(courant_factor, s, c);
    }
    const MpdataTileHandles in{psi0.handle(t), f.c1->handle(t), f.c2->handle(t), f.c3->handle(t), f.g->handle(t)};
    if (overlap_) {
      insert_mpdata_border(args_, in, border_scratch_.handle(), f.strips->of(t), send);
      insert_mpdata_body(args_, in, body_scratch_.handle(), psi1.handle(t));
    } else {
      insert_mpdata_tile(args_, in, body_scratch_.handle(), psi1.handle(t), f.strips->of(t), send);
    }
  }
}

}  // namespace tdc
