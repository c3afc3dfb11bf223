// `taskdycore run` of an elliptic case (the thin-shell problem).
#include "commands.hpp"

#include <cstdio>

#include "../elliptic/elliptic_config.hpp"
#include "../elliptic/elliptic_run.hpp"
#include "common.hpp"

namespace tdc::cli {

int elliptic_command(int argc, char** argv, const std::string& case_file, const std::vector<std::string>& sets,
                     std::string out_dir, const std::string& trace_dir, bool force, const std::string& restart) {
  tdc::EllipticConfig cfg;
  if (!load_case(tdc::load_elliptic_config, case_file, sets, "an elliptic case has no time steps to resume", restart,
                 out_dir, trace_dir, force, cfg))
    return 2;
  tdc::Runtime rt(&argc, &argv, tdc::RuntimeOptions{cfg.scheduler, trace_dir, cfg.cpu_tasks_with_gpu, cfg.tile_placement});
  // Everything from here on ends the whole job if it fails on any rank.
  return run_or_abort(rt, [&] {
    prepare_out_dir(rt, out_dir, force, {"fields.h5", "fields.xmf", "summary.json"});
    const auto& p = cfg.shell;
    if (rt.rank() == 0) {
      std::printf(
          "taskdycore: case '%s' (elliptic, %s%s), grid %dx%dx%d, tiles %dx%d, %d rank(s), %d CPU + %d CUDA "
          "workers, scheduler %s\n",
          cfg.name.c_str(), tdc::to_string(cfg.solver.method),
          cfg.solver.method == tdc::KrylovMethod::Pcg ? (cfg.solver.fused ? " fused" : " unfused") : "", p.nx, p.ny,
          p.nz, cfg.tiles_x, cfg.tiles_y, rt.size(), rt.cpu_workers(), rt.cuda_workers(), rt.scheduler().c_str());
      std::fflush(stdout);
    }
    const nlohmann::json summary = tdc::run_elliptic(cfg, rt, out_dir);
    if (rt.rank() == 0) {
      write_atomically(fs::path(out_dir) / "summary.json", summary.dump(2) + "\n");
      const auto& s = summary["solver"];
      const auto& v = summary["validation"];
      std::printf("taskdycore: %s after %d iterations (%.3f ms/iteration), residual %.3g of the initial",
                  s["converged"].get<bool>() ? "converged" : "NOT converged", s["iterations"].get<int>(),
                  s["ms_per_iteration"].get<double>(), v["true_residual_rel"].get<double>());
      if (v.contains("error_l2"))
        std::printf("; error l2 %.4g, max %.4g", v["error_l2"].get<double>(), v["error_max"].get<double>());
      std::printf("\ntaskdycore: output in %s (summary.json%s)\n", out_dir.c_str(),
                  cfg.write_fields && v.contains("error_l2") ? ", fields.h5, fields.xmf" : "");
    }
    return summary.empty() || summary["solver"]["converged"].get<bool>() ? 0 : 1;
  });
}

}  // namespace tdc::cli
