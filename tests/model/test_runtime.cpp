// The runtime's advice on worker counts and on the MPI between ranks (no StarPU needed).
#include <gtest/gtest.h>

#include "graph/runtime/runtime.hpp"

using namespace tdc;

// Measured on the GPU node (16 cores, one GPU): 15 CPU workers slowed CPU+GPU steps, 14 did not.
TEST(Runtime, WarnsWhenWorkersLeaveNoCoreBesideGpus) {
  EXPECT_NE(oversubscription_warning(15, 1, 16), "");
  EXPECT_NE(oversubscription_warning(15, 1, 16).find("STARPU_NCPU=14"), std::string::npos);
  EXPECT_EQ(oversubscription_warning(14, 1, 16), "");
  EXPECT_NE(oversubscription_warning(7, 2, 8), "");
  EXPECT_EQ(oversubscription_warning(5, 2, 8), "");
  // Without a GPU the ranks take all their cores on purpose (default_cpu_workers): no warning.
  EXPECT_EQ(oversubscription_warning(2, 0, 2), "");
  EXPECT_EQ(oversubscription_warning(16, 0, 16), "");
}

TEST(Runtime, WarnsWhereRanksWithGpusStageTheirDataInHostMemory) {
  EXPECT_NE(host_staged_mpi_warning(2, 1, false), "");
  EXPECT_NE(host_staged_mpi_warning(2, 1, false).find("TASKDYCORE_MPI=cuda"), std::string::npos);
  EXPECT_EQ(host_staged_mpi_warning(2, 1, true), "");   // a CUDA-aware MPI
  EXPECT_EQ(host_staged_mpi_warning(1, 4, false), "");  // one process: no MPI between GPUs
  EXPECT_EQ(host_staged_mpi_warning(4, 0, false), "");  // CPU ranks: host memory is all there is
}

// A 64-CPU node: Open MPI binds each of two ranks to one core; from three ranks on, to a socket.
TEST(Runtime, RanksTakeTheirShareOfTheNode) {
  std::vector<int> node(64);
  for (int c = 0; c < 64; ++c) node[c] = c;
  const auto range = [](int from, int n) {
    std::vector<int> v(n);
    for (int i = 0; i < n; ++i) v[i] = from + i;
    return v;
  };
  // Bound to a core each, tighter than the share: a slice each, and the submitting thread moves.
  RankCpus r0 = rank_cpus({0}, node, 2, 0), r1 = rank_cpus({1}, node, 2, 1);
  EXPECT_EQ(r0.cpus, range(0, 32));
  EXPECT_EQ(r1.cpus, range(32, 32));
  EXPECT_TRUE(r0.slice && r0.moved && r1.slice && r1.moved);
  // Not bound at all (--bind-to none): slices for the workers; the threads keep the whole node.
  RankCpus free = rank_cpus(node, node, 2, 1);
  EXPECT_EQ(free.cpus, range(32, 32));
  EXPECT_TRUE(free.slice);
  EXPECT_FALSE(free.moved);
  // Bound to a socket of 16 CPUs, a share of 16: the launcher's binding stands.
  RankCpus socket = rank_cpus(range(16, 16), node, 4, 1);
  EXPECT_EQ(socket.cpus, range(16, 16));
  EXPECT_FALSE(socket.slice || socket.moved);
  // Four ranks on two sockets of 32: ranks 0 and 2 bound to the same socket would bind their workers
  // to the same cores; each takes its slice of the node instead.
  RankCpus shared0 = rank_cpus(range(0, 32), node, 4, 0), shared2 = rank_cpus(range(0, 32), node, 4, 2);
  EXPECT_EQ(shared0.cpus, range(0, 16));
  EXPECT_EQ(shared2.cpus, range(32, 16));
  EXPECT_TRUE(shared0.moved && shared2.moved);
  // One rank: its own CPUs, whatever they are.
  EXPECT_EQ(rank_cpus({3}, node, 1, 0).cpus, std::vector<int>{3});
  EXPECT_FALSE(rank_cpus({3}, node, 1, 0).moved);
}
