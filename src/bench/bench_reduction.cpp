#include "bench_reduction.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "../../graph/elliptic_solver.hpp"
#include "../../graph/reductions.hpp"
#include "median.hpp"

namespace tdc {

nlohmann::json bench_reduction(const ReductionBenchOptions& o, Runtime& rt) {
  const Grid g{o.nx, o.ny, o.nz};
  const Decomposition d(g, o.tiles_x, o.tiles_y, 1, rt.size());
  ReductionChain chain(d, rt.rank(), KrylovSettings{}.max_iter);

  // Wall time of `rounds` rounds from a synchronised start until every rank is done, per round. The
  // two chains alternate within each repeat, so that a change in the machine's load hits both alike;
  // repeat 0 is a warm-up (allocation, the first transfers, perf-model calibration).
  std::vector<double> with, without;
  double norm = 0.0;
  for (int r = 0; r <= o.repeats; ++r)
    for (bool combine : {true, false}) {
      chain.submit_reset();
      rt.wait_all();
      const auto t0 = std::chrono::steady_clock::now();
      chain.submit_rounds(o.rounds, combine);
      rt.wait_all();
      const double us = 1e6 * std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / o.rounds;
      if (combine) norm = chain.recorded_norm();
      if (r > 0) (combine ? with : without).push_back(us);
    }

  std::vector<int> tiles_of_rank(rt.size(), 0);
  for (int t = 0; t < d.tiles(); ++t) ++tiles_of_rank[d.owner(t)];
  nlohmann::json j;
  j["benchmark"] = "reduction";
  j["grid"] = {o.nx, o.ny, o.nz};
  j["tiles"] = {o.tiles_x, o.tiles_y};
  j["tiles_per_rank"] = tiles_of_rank;
  j["rounds"] = o.rounds;
  j["repeats"] = o.repeats;
  j["ranks"] = rt.size();
  j["workers"] = {{"cpu", rt.cpu_workers()}, {"cuda", rt.cuda_workers()}};  // each rank's (rank 0's counts)
  j["gpus"] = rt.cuda_workers() * rt.size();
  j["scheduler"] = rt.scheduler();
  j["state_doubles"] = chain.state_size();
  const double cells = g.cells();
  j["recorded_norm"] = norm;  // ||r|| with r = 1: sqrt(cells) when every combine saw every tile
  j["expected_norm"] = std::sqrt(cells);
  auto variant = [](const std::vector<double>& v) {
    return nlohmann::json{{"us_per_round", median(v)},
                          {"us_per_round_min", *std::min_element(v.begin(), v.end())},
                          {"us_per_round_max", *std::max_element(v.begin(), v.end())},
                          {"us_per_round_all", v}};
  };
  j["variants"]["reduction"] = variant(with);
  j["variants"]["dots_only"] = variant(without);
  j["reduction_latency_us"] = median(with) - median(without);
  return j;
}

}  // namespace tdc
