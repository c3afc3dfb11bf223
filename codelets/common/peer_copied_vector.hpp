// StarPU's vector interface, but copied between two GPUs by a kernel (peer_copy_kernel) instead of by
// cudaMemcpyPeerAsync's copy engines: in an all-to-all (the spectral transposes, every GPU sending to
// every other at once) the copy engines reach only part of NVLink's rate (docs/performance.md,
// tools/link_bench/alltoall_bench). The data stay StarPU vectors in every other respect (tasks, MPI,
// traces and bus statistics see vectors). Every per-tile vector and halo strip is one (the spectral
// pieces, the partials, the strips of every field and multigrid level).
#pragma once
#include <starpu.h>

#include <cstddef>

namespace tdc {

// TASKDYCORE_PEER_COPY: "push" (a kernel on the sending GPU writes into the receiver's memory),
// "pull" (a kernel on the receiving GPU reads the sender's), "engine" (cudaMemcpyPeerAsync), or
// "auto" (the default): pull where the process drives kPeerKernelMinGpus GPUs or more, else engine.
// Between two GPUs the copy engines keep their pair's rate and a kernel only takes SMs from the
// step (2 x H200: 1-3 % slower steps, push the slowest); among four every GPU sends to three at
// once, where the engines fall to 60-75 % of that rate and pulling took 1-5 % off the steps
// (docs/performance.md, "Copies between GPUs").
enum class PeerCopy { automatic, push, pull, engine };
constexpr int kPeerKernelMinGpus = 3;
PeerCopy peer_copy_mode();  // from the environment; a bad value throws std::invalid_argument
// The mode this process's data get (auto resolved by its CUDA workers; engine without CUDA), and
// its name for `taskdycore info`.
PeerCopy effective_peer_copy();
const char* peer_copy_name(PeerCopy m);

// Smaller copies keep the copy engine (a kernel launch costs as much as such a copy); tests lower it
// (set_peer_kernel_min_bytes) so that their small grids take the kernel too.
constexpr std::size_t kPeerKernelMinBytes = std::size_t(1) << 20;
void set_peer_kernel_min_bytes(std::size_t bytes);

// starpu_vector_data_register(h, -1, 0, doubles, sizeof(double)) with these copies between GPUs,
// in the mode TASKDYCORE_PEER_COPY says now (plain vector where it is engine or the build has no
// CUDA); a pair of GPUs without peer access keeps the copy engines.
void register_peer_copied_vector(starpu_data_handle_t* h, std::size_t doubles);

}  // namespace tdc
