// `taskdycore run` of an advection case (MPDATA, analytic flows).
#include "commands.hpp"

#include <cstdio>

#include "../advection/advection_config.hpp"
#include "../advection/advection_run.hpp"
#include "common.hpp"

namespace tdc::cli {

int advection_command(int argc, char** argv, const std::string& case_file, const std::vector<std::string>& sets,
                      std::string out_dir, const std::string& trace_dir, bool force, const std::string& restart) {
  const bool root = tdc::launcher_rank() == 0;
  tdc::AdvectionConfig cfg;
  try {
    cfg = tdc::load_config(case_file, sets);
    tdc::check_courant(cfg);
    if (!restart.empty()) tdc::check_restart(cfg, restart);
    if (out_dir.empty()) out_dir = "runs/" + cfg.name + "-" + timestamp();
    check_trace_dir(trace_dir);
    check_out_dir(out_dir, force);
  } catch (const tdc::ConfigError& e) {
    if (root) std::fprintf(stderr, "taskdycore: error: %s\n", e.what());
    return 2;
  }

  tdc::Runtime rt(&argc, &argv, tdc::RuntimeOptions{cfg.scheduler, trace_dir, cfg.cpu_tasks_with_gpu, cfg.tile_placement});
  // Everything from here on ends the whole job if it fails on any rank.
  return run_or_abort(rt, [&] {
    if (rt.rank() == 0) {
      fs::create_directories(out_dir);
      if (force) {
        // (checkpoint.h5 is not removed: it is replaced atomically, and may be the one we resume from)
        for (const char* f : {"fields.h5", "fields.xmf", "summary.json"}) fs::remove(fs::path(out_dir) / f);
      }
      std::printf(
          "taskdycore: case '%s' (%s), grid %dx%dx%d, tiles %dx%d, %d rank(s), %d CPU + %d CUDA workers, "
          "scheduler %s\n",
          cfg.name.c_str(), tdc::to_string(cfg.flow), cfg.grid.nx, cfg.grid.ny, cfg.grid.nz, cfg.tiles_x, cfg.tiles_y,
          rt.size(), rt.cpu_workers(), rt.cuda_workers(), rt.scheduler().c_str());
      std::fflush(stdout);
    }
    rt.wait_all();
    const nlohmann::json summary = tdc::run_advection(cfg, rt, tdc::RunOptions{out_dir, true, restart});
    const int signal = summary.contains("interrupted_by_signal") ? summary["interrupted_by_signal"].get<int>() : 0;
    if (rt.rank() == 0) {
      write_atomically(fs::path(out_dir) / "summary.json", summary.dump(2) + "\n");
      const auto& v = summary["validation"];
      std::printf("taskdycore: %.3f ms/step, %.2f Mcell/s; mass change %.3g, min %.6g, max %.6g",
                  summary["ms_per_step"].get<double>(), summary["mcells_per_s"].get<double>(),
                  v["mass_rel_change"].get<double>(), v["min"].get<double>(), v["max"].get<double>());
      if (v.contains("l2_error")) std::printf(", l2 error %.4g", v["l2_error"].get<double>());
      std::printf("\ntaskdycore: output in %s (summary.json, fields.h5, fields.xmf, checkpoint.h5)\n", out_dir.c_str());
      if (signal) std::printf("taskdycore: interrupted; resume with --restart %s/checkpoint.h5\n", out_dir.c_str());
      if (!trace_dir.empty())
        std::printf("taskdycore: FxT trace in %s (analyse with tools/trace %s)\n", trace_dir.c_str(),
                    trace_dir.c_str());
    }
    return signal ? 128 + signal : 0;
  });
}

}  // namespace tdc::cli
