// The hardware's rate for the spectral preconditioner's transposes, without StarPU: every GPU sends
// `pieces` arrays of `mib` MiB to every other GPU at once and receives as many, as a transpose of the
// column flow does (graph/spectral_precon.hpp: with 256^3 cells a GPU and 4 chunks, 4 pieces of 8 MiB
// to each peer). Beside it one pair's copies alone, one way.
//   - one process (every GPU it sees): cudaMemcpyPeerAsync, a stream per ordered pair;
//   - several ranks (mpirun; rank r on GPU r % count): MPI_Isend/MPI_Irecv of GPU buffers where
//     Open MPI is CUDA-aware (CUDA IPC within a node), else of pinned host buffers (said so).
// The dycore's own transfers are read from its traces (tools/trace); docs/performance.md sets the two
// side by side. Usage: [mpirun -np N] alltoall_bench [--mib M] [--pieces P] [--repeat R] [--json FILE]
// Prints the median over R timed exchanges (after one untimed); exit 2 for bad options, 1 when there
// is nothing to measure (one GPU and one rank) or CUDA fails.
#include <cuda_runtime_api.h>
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's extensions: MPIX_Query_cuda_support
#endif

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "codelets/common/peer_copy.hpp"
#include "src/bench/median.hpp"

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

struct Options {
  double mib = 8;
  int pieces = 4, repeat = 20, blocks = 0;
  std::string engine = "copy";  // copy: cudaMemcpyPeerAsync; pull / push: a kernel on the receiver / sender
};

// Times `exchange` (one untimed first), the median of `repeat` runs.
template <class F>
double timed(int repeat, F exchange) {
  exchange();
  std::vector<double> t;
  for (int n = 0; n < repeat; ++n) {
    const double t0 = now();
    exchange();
    t.push_back(now() - t0);
  }
  return tdc::median(t);
}

// One process, G GPUs: every ordered pair's pieces on its own stream, of the receiving GPU (as StarPU
// copies between GPUs) where a copy engine or a pulling kernel moves them, of the sender's for push.
nlohmann::json in_process(const Options& o, int gpus) {
  const size_t bytes = size_t(o.mib * 1024 * 1024);
  std::vector<std::vector<std::vector<void*>>> send(gpus), recv(gpus);  // [gpu][peer][piece]
  std::vector<std::vector<cudaStream_t>> stream(gpus, std::vector<cudaStream_t>(gpus, nullptr));
  for (int i = 0; i < gpus; ++i) {
    check(cudaSetDevice(i), "cudaSetDevice");
    for (int j = 0; j < gpus; ++j)
      if (j != i) {  // stream[i][j]: i's pieces to j, on j's stream but for push
        check(cudaSetDevice(o.engine == "push" ? i : j), "cudaSetDevice");
        check(cudaStreamCreateWithFlags(&stream[i][j], cudaStreamNonBlocking), "cudaStreamCreate");
        check(cudaSetDevice(i), "cudaSetDevice");
        int can = 0;
        check(cudaDeviceCanAccessPeer(&can, i, j), "cudaDeviceCanAccessPeer");
        if (can) {
          const cudaError_t e = cudaDeviceEnablePeerAccess(j, 0);
          if (e != cudaErrorPeerAccessAlreadyEnabled) check(e, "cudaDeviceEnablePeerAccess");
          (void)cudaGetLastError();
        } else if (o.engine != "copy") {  // a kernel can't reach the other GPU's memory
          throw std::runtime_error("GPU " + std::to_string(i) + " has no peer access to GPU " + std::to_string(j) +
                                   ": --engine " + o.engine + " needs it");
        }
      }
    send[i].resize(gpus);
    recv[i].resize(gpus);
    for (int j = 0; j < gpus; ++j) {
      if (j == i) continue;
      for (int p = 0; p < o.pieces; ++p) {
        void *s = nullptr, *r = nullptr;
        check(cudaMalloc(&s, bytes), "cudaMalloc");
        check(cudaMalloc(&r, bytes), "cudaMalloc");
        check(cudaMemset(s, 1, bytes), "cudaMemset");
        send[i][j].push_back(s);
        recv[i][j].push_back(r);
      }
    }
  }
  auto sync = [&] {
    for (int i = 0; i < gpus; ++i)
      for (int j = 0; j < gpus; ++j)
        if (j != i) check(cudaStreamSynchronize(stream[i][j]), "cudaStreamSynchronize");
  };
  auto copy = [&](int i, int j, int p) {  // GPU i's piece p for j into j's receive buffer from i
    if (o.engine == "copy") {
      check(cudaMemcpyPeerAsync(recv[j][i][p], j, send[i][j][p], i, bytes, stream[i][j]), "cudaMemcpyPeerAsync");
      return;
    }
    check(cudaSetDevice(o.engine == "push" ? i : j), "cudaSetDevice");
    tdc::peer_copy_kernel(recv[j][i][p], send[i][j][p], bytes, stream[i][j], o.blocks);
  };
  const double all = timed(o.repeat, [&] {
    for (int p = 0; p < o.pieces; ++p)
      for (int i = 0; i < gpus; ++i)
        for (int j = 0; j < gpus; ++j)
          if (j != i) copy(i, j, p);
    sync();
  });
  const double pair = timed(o.repeat, [&] {
    for (int p = 0; p < o.pieces; ++p) copy(0, 1, p);
    sync();
  });
  for (int i = 0; i < gpus; ++i) {
    check(cudaSetDevice(i), "cudaSetDevice");
    for (int j = 0; j < gpus; ++j)
      if (j != i) {
        for (int p = 0; p < o.pieces; ++p) {
          cudaFree(send[i][j][p]);
          cudaFree(recv[i][j][p]);
        }
        cudaStreamDestroy(stream[i][j]);  // (of another device for copy and pull: fine)
      }
  }
  const double out = double(gpus - 1) * o.pieces * bytes;  // bytes each GPU sends (and receives)
  return {{"mode", "one process"},
          {"gpus", gpus},
          {"engine", o.engine},
          {"alltoall_ms", all * 1e3},
          {"alltoall_GBps_per_gpu", out / all / 1e9},
          {"pair_ms", pair * 1e3},
          {"pair_GBps", double(o.pieces) * bytes / pair / 1e9}};
}

// Ranks: each on one GPU (its rank within its node, modulo the GPUs it sees), every rank's pieces to
// every other rank at once.
nlohmann::json over_ranks(const Options& o, int rank, int ranks, int gpus) {
  const size_t bytes = size_t(o.mib * 1024 * 1024);
  bool device_buffers = false;
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  device_buffers = MPIX_Query_cuda_support() == 1;
#endif
  MPI_Comm node;
  int local = 0;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  if (gpus > 0) check(cudaSetDevice(local % gpus), "cudaSetDevice");
  device_buffers = device_buffers && gpus > 0;
  std::vector<void*> send, recv;  // [peer * pieces + piece]
  for (int n = 0; n < ranks * o.pieces; ++n) {
    void *s = nullptr, *r = nullptr;
    if (device_buffers) {
      check(cudaMalloc(&s, bytes), "cudaMalloc");
      check(cudaMalloc(&r, bytes), "cudaMalloc");
      check(cudaMemset(s, 1, bytes), "cudaMemset");
    } else {
      check(cudaMallocHost(&s, bytes), "cudaMallocHost");
      check(cudaMallocHost(&r, bytes), "cudaMallocHost");
      std::fill_n(static_cast<char*>(s), bytes, 1);
    }
    send.push_back(s);
    recv.push_back(r);
  }
  if (device_buffers) check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto exchange = [&](bool all) {
    std::vector<MPI_Request> req;
    for (int q = 0; q < ranks; ++q) {
      if (q == rank) continue;
      const bool to = all || (rank == 0 && q == 1), from = all || (rank == 1 && q == 0);
      for (int p = 0; p < o.pieces; ++p) {
        if (from) {
          req.emplace_back();
          MPI_Irecv(recv[q * o.pieces + p], int(bytes), MPI_BYTE, q, p, MPI_COMM_WORLD, &req.back());
        }
        if (to) {
          req.emplace_back();
          MPI_Isend(send[q * o.pieces + p], int(bytes), MPI_BYTE, q, p, MPI_COMM_WORLD, &req.back());
        }
      }
    }
    MPI_Waitall(int(req.size()), req.data(), MPI_STATUSES_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);  // the exchange ends when the slowest rank's does
  };
  MPI_Barrier(MPI_COMM_WORLD);
  const double all = timed(o.repeat, [&] { exchange(true); });
  const double pair = timed(o.repeat, [&] { exchange(false); });
  for (size_t n = 0; n < send.size(); ++n) {
    if (device_buffers) {
      cudaFree(send[n]);
      cudaFree(recv[n]);
    } else {
      cudaFreeHost(send[n]);
      cudaFreeHost(recv[n]);
    }
  }
  const double out = double(ranks - 1) * o.pieces * bytes;
  return {{"mode", "ranks"},
          {"ranks", ranks},
          {"buffers", device_buffers ? "GPU (CUDA-aware MPI)" : "pinned host (MPI is not CUDA-aware)"},
          {"alltoall_ms", all * 1e3},
          {"alltoall_GBps_per_rank", out / all / 1e9},
          {"pair_ms", pair * 1e3},
          {"pair_GBps", double(o.pieces) * bytes / pair / 1e9}};
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  std::string json;
  CLI::App app{"alltoall_bench: every GPU (or rank) sends pieces to every other at once, without StarPU"};
  app.add_option("--mib", o.mib, "MiB a piece (default 8: 256^3 cells a GPU, 4 GPUs, 4 chunks)");
  app.add_option("--pieces", o.pieces, "pieces to each peer (default 4, the spectral transposes' chunks)");
  app.add_option("--repeat", o.repeat, "timed exchanges; the median is reported (default 20)");
  app.add_option(
         "--engine", o.engine,
         "one process: copy (cudaMemcpyPeerAsync, default), pull (a kernel on the receiver), push (on the sender)")
      ->check(CLI::IsMember({"copy", "pull", "push"}));
  app.add_option("--blocks", o.blocks, "pull, push: the copy kernel's thread blocks (default 0: kPeerCopyBlocks)");
  app.add_option("--json", json, "also write the figures to this (new) file");
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int status = 0;
  try {
    app.parse(argc, argv);
    if (!(o.mib > 0 && o.mib <= 1024)) throw CLI::ValidationError("--mib", "must be in (0, 1024]");  // an int count
    if (o.pieces < 1 || o.pieces > 1024) throw CLI::ValidationError("--pieces", "must be 1 to 1024");
    if (o.repeat < 1) throw CLI::ValidationError("--repeat", "must be positive");
    if (o.blocks < 0 || o.blocks > 65535) throw CLI::ValidationError("--blocks", "must be 0 to 65535");
    if (!json.empty() && std::ifstream(json).good()) throw CLI::ValidationError("--json", json + " exists");
  } catch (const CLI::ParseError& e) {
    if (rank == 0) app.exit(e);  // prints the help or the error
    MPI_Finalize();
    return e.get_exit_code() == 0 ? 0 : 2;
  }
  try {
    int gpus = 0;
    if (cudaGetDeviceCount(&gpus) != cudaSuccess) gpus = 0;
    if (ranks == 1 && gpus < 2) throw std::runtime_error("needs two GPUs in one process, or two ranks (mpirun)");
    const nlohmann::json j = ranks == 1 ? in_process(o, gpus) : over_ranks(o, rank, ranks, gpus);
    if (rank == 0) {
      const bool one = ranks == 1;
      std::printf(
          "alltoall_bench: %s%s, %d %s, %d pieces of %.3g MiB to each peer (%.1f MB out of each), median of %d\n",
          j["mode"].get<std::string>().c_str(), one ? (" (" + o.engine + ")").c_str() : "", one ? gpus : ranks,
          one ? "GPUs" : "ranks", o.pieces, o.mib, (one ? gpus - 1 : ranks - 1) * o.pieces * o.mib * 1.048576,
          o.repeat);
      if (!one) std::printf("  buffers: %s\n", j["buffers"].get<std::string>().c_str());
      std::printf("  all to all: %8.3f ms, %7.1f GB/s out of each %s (and as much in)\n",
                  j["alltoall_ms"].get<double>(),
                  j[one ? "alltoall_GBps_per_gpu" : "alltoall_GBps_per_rank"].get<double>(), one ? "GPU" : "rank");
      std::printf("  one pair alone (0 -> 1): %8.3f ms, %7.1f GB/s\n", j["pair_ms"].get<double>(),
                  j["pair_GBps"].get<double>());
      if (!json.empty()) {
        nlohmann::json w = j;
        w["mib_per_piece"] = o.mib;
        w["pieces"] = o.pieces;
        w["repeat"] = o.repeat;
        std::ofstream(json) << w.dump(2) << "\n";
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "alltoall_bench: error (rank %d): %s\n", rank, e.what());
    if (ranks > 1) MPI_Abort(MPI_COMM_WORLD, 1);  // the other ranks would wait for this one forever
    status = 1;
  }
  MPI_Finalize();
  return status;
}
