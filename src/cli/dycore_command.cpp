// `taskdycore run` of a dycore case (Taylor-Green, thermal bubble).
#include "commands.hpp"

#include <cstdio>

#include "../dycore/dycore_config.hpp"
#include "../dycore/dycore_run.hpp"
#include "../../graph/runtime/stop_request.hpp"
#include "common.hpp"

namespace tdc::cli {

int dycore_command(int argc, char** argv, const std::string& case_file, const std::vector<std::string>& sets,
                   std::string out_dir, const std::string& trace_dir, bool force, const std::string& restart) {
  tdc::DycoreConfig cfg;
  // The restart file is checked with the case, before --out is created.
  const auto load = [&](const std::string& file, const std::vector<std::string>& overrides) {
    tdc::DycoreConfig c = tdc::load_dycore_config(file, overrides);
    if (!restart.empty()) tdc::check_dycore_restart(c, restart);
    return c;
  };
  if (!load_case(load, case_file, sets, nullptr, "", out_dir, trace_dir, force, cfg)) return 2;
  tdc::Runtime rt(&argc, &argv,
                  tdc::RuntimeOptions{cfg.scheduler, trace_dir, cfg.cpu_tasks_with_gpu, cfg.tile_placement});
  // (checkpoint.h5 is not removed: it is replaced atomically, and may be the one we resume from)
  // Everything from here on ends the whole job if it fails on any rank.
  return run_or_abort(rt, [&] {
    prepare_out_dir(rt, out_dir, force,
                    {"diagnostics.csv", "diagnostics.h5", "summary.json", "fields.h5", "fields.xmf"});
    if (rt.rank() == 0) {
      std::printf(
          "taskdycore: case '%s' (dycore, NFT, %s), grid %dx%dx%d, tiles %dx%d, %d rank(s), %d CPU + %d CUDA "
          "workers, scheduler %s\n",
          cfg.name.c_str(), tdc::to_string(cfg.solver.method), cfg.grid.nx, cfg.grid.ny, cfg.grid.nz, cfg.tiles_x,
          cfg.tiles_y, rt.size(), rt.cpu_workers(), rt.cuda_workers(), rt.scheduler().c_str());
      std::fflush(stdout);
    }
    const nlohmann::json summary = tdc::run_dycore(cfg, rt, rt.rank() == 0 ? out_dir : "", true, restart);
    const int signal = summary.contains("interrupted_by_signal") ? summary["interrupted_by_signal"].get<int>() : 0;
    if (rt.rank() == 0) {
      write_atomically(fs::path(out_dir) / "summary.json", summary.dump(2) + "\n");
      const auto& v = summary["validation"];
      std::printf("taskdycore: %.3f ms/step, %.2f Mcell/s; max |div| %.3g (tolerance %.3g), solves converged: %s",
                  summary["ms_per_step"].get<double>(), summary["mcells_per_s"].get<double>(),
                  v["max_divergence"].get<double>(), cfg.divergence_tolerance,
                  summary["solver"]["converged_every_step"].get<bool>()
                      ? "yes"
                      : ("NO at " + std::to_string(summary["solver"]["unconverged_steps"].size()) +
                         " steps (summary.json solver.unconverged_steps; raise solver.max_iter)")
                            .c_str());
      if (v.contains("front_position_m")) {
        std::printf("; front at %.1f m from the centre, theta' min %.3f K\n", v["front_position_m"].get<double>(),
                    v["theta_min_K"].get<double>());
      } else if (v.contains("rise_height") && !summary["buoyancy"].contains("radius")) {  // not a bubble
        std::printf("; theta' content changed by %.1e (relative)\n", v["theta_relative_change_max"].get<double>());
      } else if (v.contains("rise_height")) {
        const auto& z = v["rise_height"]["centroid_z"];
        std::printf("; bubble centroid %.1f -> %.1f m, theta' conserved to %.1e, energy budget error %.2g\n",
                    z.front().get<double>(), z.back().get<double>(), v["theta_relative_change_max"].get<double>(),
                    v["energy_budget_error"].get<double>());
      } else {
        std::printf(", kinetic energy never grows: %s\n", v["kinetic_energy_never_grows"].get<bool>() ? "yes" : "NO");
      }
      std::printf("taskdycore: output in %s (summary.json, diagnostics.csv, diagnostics.h5%s%s)\n", out_dir.c_str(),
                  cfg.write_fields ? ", fields.h5, fields.xmf" : "",
                  summary["output"].contains("checkpoint") ? ", checkpoint.h5" : "");
      if (signal) std::printf("taskdycore: interrupted; resume with --restart %s/checkpoint.h5\n", out_dir.c_str());
      if (summary.contains("aborted"))
        std::fprintf(stderr, "taskdycore: error: %s\n", summary["aborted"].get<std::string>().c_str());
    }
    const int aborted =
        tdc::first_nonzero_over_ranks(rt.rank() == 0 && summary.contains("aborted"), rt.rank(), rt.size());
    return signal ? 128 + signal : aborted ? 3 : 0;
  });
}

}  // namespace tdc::cli
