// MPDATA step codelets: advance one tile of psi by one time step.
//  - mpdata_border: the cells the neighbours need, written straight into the four halo strips
//    (high priority, so the strips can travel while the body is computed);
//  - mpdata_body:   the remaining cells, written into the new field;
//  - mpdata_tile:   the whole tile at once, then its strips (one task when overlap is not wanted).
#pragma once
#include <starpu.h>

#include "../common/send_ahead.hpp"
#include "mpdata_step_kernel.hpp"

namespace tdc {

struct MpdataTileHandles {
  starpu_data_handle_t psi0, c1, c2, c3, g;
};

// Scratch bytes the codelets need per worker (register one scratch handle of this size per kind).
std::size_t mpdata_border_scratch_bytes(const MpdataTaskArgs& a);
std::size_t mpdata_body_scratch_bytes(const MpdataTaskArgs& a);

// send_ahead: the copies of the strips that the task's end starts (send_ahead.hpp).
void insert_mpdata_border(const MpdataTaskArgs& a, const MpdataTileHandles& in, starpu_data_handle_t scratch,
                          const starpu_data_handle_t strips[4], const SendAhead* send_ahead = nullptr);
void insert_mpdata_body(const MpdataTaskArgs& a, const MpdataTileHandles& in, starpu_data_handle_t scratch,
                        starpu_data_handle_t psi_new);
void insert_mpdata_tile(const MpdataTaskArgs& a, const MpdataTileHandles& in, starpu_data_handle_t scratch,
                        starpu_data_handle_t psi_new, const starpu_data_handle_t strips[4],
                        const SendAhead* send_ahead = nullptr);

}  // namespace tdc
