#include "bench_mpdata.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "../advection/advection_model.hpp"
#include "../run/config_reader.hpp"
#include "../run/checksum.hpp"
#include "direct_mpdata.hpp"
#include "median.hpp"

namespace tdc {
namespace {

AdvectionConfig bench_config(const BenchOptions& o) {
  AdvectionConfig c;
  c.name = "bench_mpdata";
  c.flow = Flow::Rotation;
  c.grid.nx = o.nx;
  c.grid.ny = o.ny;
  c.grid.nz = o.nz;
  c.z_boundary = ZBoundary::Periodic;
  c.tiles_x = o.tiles_x;
  c.tiles_y = o.tiles_y;
  c.halo = 3;
  c.overlap = o.overlap;
  c.mpdata.iord = 2;
  c.mpdata.fct = o.fct;
  c.mpdata.iga = o.iga;
  c.mpdata.unit_density = o.unit_density;
  c.mpdata.zb = c.z_boundary;
  config_detail::default_mpdata_kernel(c.mpdata);
  c.omega = 2 * M_PI;
  c.dt = 1.6 / (c.omega * (o.nx + o.ny));  // largest Courant sum 0.8, at the domain's corners
  c.steps = o.warmup + o.repeats * o.steps;
  c.diagnostics_interval = o.diagnostics;
  c.shape = Shape::Cone;
  c.center = {0.5, 0.75, 0.5};
  c.radius = 0.15;
  return c;
}

}  // namespace

nlohmann::json bench_mpdata(const BenchOptions& o, Runtime& rt) {
  const AdvectionConfig cfg = bench_config(o);
  const double cells = cfg.grid.cells();
  AdvectionModel model(cfg, rt.rank(), rt.size());
  model.submit_steps(o.warmup);
  rt.wait_all();
  std::vector<double> graph_ms;
  for (int r = 0; r < o.repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    model.submit_steps(o.steps);
    rt.wait_all();
    graph_ms.push_back(1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / o.steps);
  }
  std::vector<double> field;
  model.gather(field);
  model.take_diagnostics(true);

  nlohmann::json j;
  if (rt.rank() != 0) return j;
  const double ms = median(graph_ms);
  j["benchmark"] = "mpdata";
  j["grid"] = {o.nx, o.ny, o.nz};
  j["tiles"] = {o.tiles_x, o.tiles_y};
  j["fct"] = o.fct;
  j["iga"] = o.iga;
  j["unit_density"] = o.unit_density;
  j["overlap"] = o.overlap;
  j["diagnostics_interval"] = o.diagnostics;
  j["cpu_tasks_with_gpu"] = o.cpu_steps;
  j["iord"] = 2;
  j["steps"] = o.steps;
  j["repeats"] = o.repeats;
  j["warmup"] = o.warmup;
  j["ranks"] = rt.size();
  j["workers"] = {{"cpu", rt.cpu_workers()}, {"cuda", rt.cuda_workers()}};
  j["scheduler"] = rt.scheduler();
  j["ms_per_step"] = ms;
  j["ms_per_step_all"] = graph_ms;
  j["mcells_per_s"] = cells / (ms * 1e-3) / 1e6;
  j["gcells_per_s"] = cells / (ms * 1e-3) / 1e9;
  j["effective_gbs"] = kBytesPerCell * cells / (ms * 1e-3) / 1e9;
  j["field_checksum"] = checksum_hex(field);
  if (rt.cuda_workers() > 0 && cuda_device_available()) {
    j["device"] = cuda_device_name();
    const double copy = device_copy_bandwidth(std::size_t(1) << 30, 10);
    j["copy_gbs"] = copy;
    j["bandwidth_fraction"] = j["effective_gbs"].get<double>() / copy;
    j["roofline_gcells_per_s"] = copy / kBytesPerCell;
    if (o.direct && rt.size() == 1) {
      const DirectTiming d = direct_mpdata_cuda(cfg, o.warmup, o.repeats, o.steps);
      const double dms = median(d.ms_per_step);
      j["direct_ms_per_step"] = dms;
      j["direct_ms_per_step_all"] = d.ms_per_step;
      j["direct_gcells_per_s"] = cells / (dms * 1e-3) / 1e9;
      j["graph_over_direct"] = ms / dms;
      j["direct_matches_graph"] = d.checksum == j["field_checksum"].get<std::string>();
    }
  }
  return j;
}

}  // namespace tdc
