#!/usr/bin/env bash
# On the device machine (bundle from tools/make_bundle.sh), from the repo root:
#   tools/gpu_bench.sh BUNDLE [all|tests|gpu|hybrid|diagnostics|trace|elliptic|ncu|dycore]...   (default: all)
#   sections for the dynamical core: session10 (A/B against bin/taskdycore_base), ncu_session10, session9 (A/B against bin/taskdycore_base when carried), session8 (A/B against bin/taskdycore_s7 when carried), table11 (CPU vs GPU at 128^3, paper 000 Table XI), dycore_perf,
#   dycore_overhead, bubble, solver_stop (max-norm stop + extrapolated first guess, GPU restart),
#   multigrid (PCG with the multigrid V-cycle vs the line preconditioner), table11_128 (GPU half of
#   Table XI at 128^3; the CPU half runs on the VM: see docs/performance.md)
# Runs the CPU/CUDA agreement and model tests, CPU-vs-GPU bitwise runs, `bench mpdata` at 256^3
# over tiles, FCT, overlap, kernel variants, CPU+GPU placement, diagnostics overhead, and a trace.
# Results in $OUT/results.tgz; the key lines on stdout. Every figure in docs/performance.md
# comes from a section of this script.
set -u
source "$(dirname "$0")/gpu_common.sh" "$1"; shift
sections=("$@"); [ ${#sections[@]} -eq 0 ] && sections=(all)
want() { [[ " ${sections[*]} " == *" all "* || " ${sections[*]} " == *" $1 "* ]]; }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$res/gpu.txt"
g=(--grid 256x256x256 --steps 20 --repeat 5 --warmup 5)
# The thin-shell case at 256x256x128 to 1e-10 on the GPU (1 tile), on 16 CPU workers (4x4 tiles) and on
# the GPU with 2x2 tiles: are the residual histories and the solutions bitwise equal? $1 prefixes the runs.
thin_shell_bitwise() {
  local ts=(cases/thin_shell_elliptic.toml --set grid.nx=256 --set grid.ny=256 --set grid.nz=128 --set output.fields=false)
  run "$1_ts_gpu" STARPU_NCPU=0 -- "${ts[@]}"
  run "$1_ts_cpu" STARPU_NCUDA=0 STARPU_NCPU=16 -- "${ts[@]}" --set tiles.x=4 --set tiles.y=4
  run "$1_ts_gpu_2x2" STARPU_NCPU=0 -- "${ts[@]}" --set tiles.x=2 --set tiles.y=2
  python3 - "$res" "$1" <<'PY'
import json, sys
r, pre = sys.argv[1], sys.argv[2]
a = json.load(open(f"{r}/{pre}_ts_gpu/summary.json"))
for other in (f"{pre}_ts_cpu", f"{pre}_ts_gpu_2x2"):
    b = json.load(open(f"{r}/{other}/summary.json"))
    same = a["solver"]["residual_history"] == b["solver"]["residual_history"] and a["solution_checksum"] == b["solution_checksum"]
    print("thin shell 256x256x128 PCG: GPU 1 tile vs", other, "history and solution bitwise equal:", same)
print("iterations", a["solver"]["iterations"], "| error_l2", a["validation"]["error_l2"], "| checksum", a["solution_checksum"])
PY
}
# The elliptic kernel tests (CPU/CUDA agreement included) and solver tests; $1 prefixes the logs.
elliptic_tests() {
  timeout 240 test_kernels --gtest_filter='Elliptic*' > "$res/$1_test_kernels.txt" 2>&1
  echo "elliptic kernel tests exit $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$res/$1_test_kernels.txt" | tr '\n' ' ')"
  STARPU_NCPU=2 timeout 240 test_model --gtest_filter='EllipticSolver*' > "$res/$1_test_model.txt" 2>&1
  echo "elliptic solver tests exit $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$res/$1_test_model.txt" | tr '\n' ' ')"
}
# $2 alternating rounds of `bench elliptic` at 256x256x128 (no cuSPARSE, no tolerance runs) on the tile
# layouts $3 for each variant after them: "new" is bin/taskdycore, any other v bin/taskdycore_<v>.
# $1 prefixes the results.
elliptic_rounds() {
  local pre=$1 rounds=$2 tiles=($3); shift 3
  local e=(--grid 256x256x128 --iterations 50 --repeat 3 --csr off --tolerances off)
  for round in $(seq "$rounds"); do
    for t in "${tiles[@]}"; do
      for v in "$@"; do
        local exe=taskdycore; [ "$v" = new ] || exe=taskdycore_$v
        command -v $exe >/dev/null && TDC_EXE=$exe bench_elliptic ${pre}_${v}_${t}_$round STARPU_NCPU=0 -- "${e[@]}" --tiles $t
      done
    done
  done
}
# Three alternating rounds of `bench elliptic` at 256x256x128 (no tolerance runs): bin/taskdycore with
# cuSPARSE in its run, then bin/taskdycore_<v> for each v after $1 without; $1 prefixes the results.
new_vs_rounds() {
  local pre=$1; shift
  local e=(--grid 256x256x128 --iterations 50 --repeat 3 --tolerances off)
  for round in 1 2 3; do
    bench_elliptic ${pre}_new_$round STARPU_NCPU=0 -- "${e[@]}"
    for v in "$@"; do
      command -v taskdycore_$v >/dev/null && TDC_EXE=taskdycore_$v bench_elliptic ${pre}_${v}_$round STARPU_NCPU=0 -- "${e[@]}" --csr off
    done
  done
}
# ncu of the kernels matching $3 in EXE=$2's `bench elliptic` at 256x256x128, skipping $4 launches of
# them and profiling $5 (a solve's later iterations: not its first or its finishing one); $1 names it.
ncu_line() {
  command -v ncu >/dev/null && command -v "$2" >/dev/null || return 0
  local keys='^  [a-z_]+.*\(|Duration|DRAM Throughput|L2 Hit|Achieved Occupancy|Registers Per|Executed Ipc A|One or More Eligible|Warp Cycles Per Issued|spends'
  local secs=(--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section SchedulerStats --section WarpStateStats --section ComputeWorkloadAnalysis)
  TASKDYCORE_GATED_GRAPHS=off STARPU_NCPU=0 timeout 200 ncu --target-processes all --kernel-name regex:"$3" \
    --launch-skip "$4" --launch-count "$5" "${secs[@]}" \
    "$2" bench elliptic --grid 256x256x128 --iterations 10 --repeat 1 --csr off --tolerances off > "$res/$1.txt" 2>&1
  echo "ncu $1 exit $?"; grep -E "$keys" "$res/$1.txt" | sed 's/(TileLayout.*//;s/(tdc::.*//' | head -40
}
# pcg_line against bin/taskdycore_base: the elliptic tests, $2 alternating rounds on 1x1 and 2x2 tiles,
# cuSPARSE once, 512x512x128, the thin-shell case bitwise and ncu of the iteration's two kernels.
pcg_line_ab() {
  elliptic_tests "$1"
  elliptic_rounds "$1" "$2" "1x1 2x2" new base
  bench_elliptic $1_new_csr STARPU_NCPU=0 -- --grid 256x256x128 --iterations 50 --repeat 3
  bench_elliptic $1_new_512 STARPU_NCPU=0 -- --grid 512x512x128 --iterations 30 --repeat 3 --csr off --tolerances off
  thin_shell_bitwise "$1"
  ncu_line "$1_ncu" taskdycore 'line_direction_kernel|line_step_kernel' 6 2
}
if want tests; then
  tests
  small=(cases/deformational.toml --set time.steps=96 --set output.interval=24)
  run cpu_only STARPU_NCUDA=0 STARPU_NCPU=8 -- "${small[@]}"
  run gpu_only STARPU_NCPU=0 -- "${small[@]}"
  run hybrid_small STARPU_NCPU=8 -- "${small[@]}"
  for r in cpu_only gpu_only hybrid_small; do echo "$r records: $(grep -o '"records": [0-9]*' "$res/$r/summary.json" | head -1)"; done
  cmp "$res/cpu_only/fields.h5" "$res/gpu_only/fields.h5" >/dev/null 2>&1 && echo "fields.h5 cpu == gpu (bytes)" || echo "fields.h5 files differ in bytes (metadata such as times of writing may differ)"
fi
if want gpu; then
  for t in 1x1 2x1 2x2 4x2 4x4; do bench gpu_fct_$t STARPU_NCPU=0 -- "${g[@]}" --tiles $t; done
  for t in 1x1 2x2 4x4; do bench gpu_fct_${t}_nooverlap STARPU_NCPU=0 -- "${g[@]}" --tiles $t --overlap off; done
  bench gpu_nofct_1x1_nooverlap STARPU_NCPU=0 -- "${g[@]}" --fct off --tiles 1x1 --overlap off
  bench gpu_fct_1x1_nooverlap_fused STARPU_NCPU=0 TASKDYCORE_KERNEL=fused -- "${g[@]}" --tiles 1x1 --overlap off
  bench gpu_fct_512x512x128_nooverlap STARPU_NCPU=0 -- --grid 512x512x128 --steps 20 --repeat 5 --warmup 5 --tiles 1x1 --overlap off
fi
if want hybrid; then
  # 15 CPU workers oversubscribe the node's 16 cores (with the CUDA worker, StarPU-MPI's progress
  # thread and the submitting thread); StarPU's own default is 14 there, and session18h compares both.
  for t in 1x1 2x2 4x4; do
    bench gpu_$t STARPU_NCPU=0 -- "${g[@]}" --tiles $t --overlap off --direct off
    bench hybrid_$t STARPU_NCPU=15 -- "${g[@]}" --tiles $t --overlap off --direct off --warmup 40
    bench hybrid_cpusteps_$t STARPU_NCPU=15 -- "${g[@]}" --tiles $t --overlap off --direct off --warmup 40 --cpu-steps on
  done
  bench cpu_only_fct_4x4 STARPU_NCUDA=0 STARPU_NCPU=16 -- --grid 256x256x256 --steps 4 --repeat 3 --warmup 2 --tiles 4x4 --overlap off --direct off
fi
if want diagnostics; then
  for d in 0 1 10; do
    bench diag${d}_gpu STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off --direct off --repeat 7 --diagnostics $d
    bench diag${d}_hybrid STARPU_NCPU=15 -- "${g[@]}" --tiles 1x1 --overlap off --direct off --warmup 10 --diagnostics $d
  done
fi
if want trace; then
  run traced STARPU_NCPU=0 -- cases/solid_body_rotation.toml --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 \
    --set time.dt=0.00055 --set time.steps=10 --set output.interval=0 --set grid.z_boundary=periodic --set tiles.x=2 \
    --set tiles.y=2 --trace "$res/trace"
fi
if want elliptic; then
  e=(--grid 256x256x128 --iterations 50 --repeat 3)
  bench_elliptic ell_gpu_1x1 STARPU_NCPU=0 -- "${e[@]}"
  bench_elliptic ell_gpu_2x2 STARPU_NCPU=0 -- "${e[@]}" --tiles 2x2 --csr off --tolerances off
  bench_elliptic ell_gpu_512 STARPU_NCPU=0 -- --grid 512x512x128 --iterations 30 --repeat 3 --csr off --tolerances off
  bench_elliptic ell_cpu16_1x1 STARPU_NCUDA=0 STARPU_NCPU=16 -- --grid 256x256x128 --iterations 10 --repeat 2 --tiles 4x4 --csr on --tolerances off
  ts=(cases/thin_shell_elliptic.toml --set grid.nx=256 --set grid.ny=256 --set grid.nz=128 --set output.fields=false)
  run ts_gpu_pcg STARPU_NCPU=0 -- "${ts[@]}"
  run ts_gpu_gcr STARPU_NCPU=0 -- "${ts[@]}" --set solver.method=gcr
  run ts_cpu_pcg STARPU_NCUDA=0 STARPU_NCPU=16 -- "${ts[@]}" --set tiles.x=4 --set tiles.y=4
  python3 - "$res" <<'PY'
import json, sys
a = json.load(open(f"{sys.argv[1]}/ts_gpu_pcg/summary.json")); b = json.load(open(f"{sys.argv[1]}/ts_cpu_pcg/summary.json"))
same = a["solver"]["residual_history"] == b["solver"]["residual_history"] and a["solution_checksum"] == b["solution_checksum"]
print("thin shell 256x256x128 PCG: GPU (1 tile) vs 16 CPUs (4x4 tiles): history and solution bitwise equal:", same,
      "| iterations", a["solver"]["iterations"], "| error_l2", a["validation"]["error_l2"])
PY
fi
if want elliptic_quick; then
  bench_elliptic ell_gpu_1x1 STARPU_NCPU=0 -- --grid 256x256x128 --iterations 50 --repeat 5
  run ts_trace STARPU_NCPU=0 -- cases/thin_shell_elliptic.toml --set grid.nx=256 --set grid.ny=256 --set grid.nz=128 \
    --set output.fields=false --set shell.rhs=random --set solver.tol_rel=1e-5 --trace "$res/ts_trace"
fi
if want dycore; then
  tg=(cases/taylor_green.toml)
  run tg_cpu_32 STARPU_NCUDA=0 STARPU_NCPU=16 -- "${tg[@]}" --set grid.nx=32 --set grid.ny=32 --set grid.nz=32 --set time.dt=0.04 --set time.steps=20 --set tiles.x=2 --set tiles.y=2
  run tg_gpu_32 STARPU_NCPU=0 -- "${tg[@]}" --set grid.nx=32 --set grid.ny=32 --set grid.nz=32 --set time.dt=0.04 --set time.steps=20
  run tg_gpu_64 STARPU_NCPU=0 -- "${tg[@]}" --set time.steps=100
  run tg_gpu_128 STARPU_NCPU=0 -- "${tg[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=0.01 --set time.steps=20 --set solver.max_iter=200
  run tg_gpu_128_pcg STARPU_NCPU=0 -- "${tg[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=0.01 --set time.steps=20 --set solver.max_iter=200 --set solver.method=pcg
  run tg_gpu_256_pcg STARPU_NCPU=0 -- "${tg[@]}" --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set time.dt=0.005 --set time.steps=6 --set diagnostics.interval=3 --set solver.max_iter=400 --set solver.method=pcg
  run re1600_64 STARPU_NCPU=0 -- cases/taylor_green_re1600.toml
  run re1600_128 STARPU_NCPU=0 -- cases/taylor_green_re1600.toml --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=0.01 --set time.steps=1200 --set solver.method=pcg --set diagnostics.interval=20
  run tg_trace_128 STARPU_NCPU=0 -- "${tg[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=0.01 --set time.steps=4 --set diagnostics.interval=2 --set solver.max_iter=200 --set solver.method=pcg --trace "$res/tg_trace"
  python3 - "$res" <<'PY'
import json, sys
r = sys.argv[1]
a = json.load(open(f"{r}/tg_cpu_32/summary.json")); b = json.load(open(f"{r}/tg_gpu_32/summary.json"))
print("TG 32^3 20 steps: 16 CPUs (2x2 tiles) vs GPU (1 tile) velocity bitwise equal:", a["velocity_checksum"] == b["velocity_checksum"],
      "| KE", a["validation"]["kinetic_energy"]["value"][-1], b["validation"]["kinetic_energy"]["value"][-1])
for n in ("re1600_64", "re1600_128"):
    try:
        s = json.load(open(f"{r}/{n}/summary.json")); p = s["validation"]["dissipation_peak"]
        print(n, "ms/step %.2f" % s["ms_per_step"], "peak -dE/dt %.5f at t %.2f (DNS 0.0127 at 9): %+.1f %%" % (p["value"], p["time"], 100 * p["relative_difference"]))
    except Exception as e:
        print(n, "failed", e)
for n in ("tg_gpu_64", "tg_gpu_128", "tg_gpu_128_pcg", "tg_gpu_256_pcg"):
    try:
        s = json.load(open(f"{r}/{n}/summary.json"))
        print(n, "ms/step %.2f" % s["ms_per_step"], "its", s["solver"]["iterations"], "max|div| %.3g" % s["validation"]["max_divergence"],
              "KE", s["validation"]["kinetic_energy"]["value"][-1])
    except Exception as e:
        print(n, "failed", e)
PY
fi
if want table11; then
  # Paper 000 Table XI: the modified Taylor-Green flow, 400 steps, fields at 0, 200, 400, on 15 CPU
  # workers (2x2 tiles) and on the GPU (1 tile). 64^3: at 128^3 the 400 CPU steps take over 10 minutes.
  t11=(cases/taylor_green.toml --set case.initial='"taylor_green_modified"' --set time.steps=400 --set output.fields_interval=200
       --set diagnostics.interval=50 --set solver.method=pcg --set solver.max_iter=300)
  run t11_gpu STARPU_NCPU=0 -- "${t11[@]}"
  run t11_cpu STARPU_NCUDA=0 STARPU_NCPU=15 -- "${t11[@]}" --set tiles.x=2 --set tiles.y=2
  python3 - "$res" <<'PY'
import json, sys
r = sys.argv[1]
try:
    a = json.load(open(f"{r}/t11_cpu/summary.json")); b = json.load(open(f"{r}/t11_gpu/summary.json"))
    for x, y in zip(a["field_records"], b["field_records"]):
        print("Table XI step", x["step"], "CPU (15 workers, 2x2 tiles) vs GPU (1 tile) u, v, w bitwise equal:",
              x["velocity_checksum"] == y["velocity_checksum"])
    print("mean |omega| CPU", a["validation"]["vorticity_magnitude"]["l1"][-1], "GPU", b["validation"]["vorticity_magnitude"]["l1"][-1],
          "| ms/step CPU %.1f GPU %.2f" % (a["ms_per_step"], b["ms_per_step"]), "| its", b["solver"]["iterations"])
except Exception as e:
    print("table11 failed", e)
PY
fi
if want dycore_perf; then
  tg=(cases/taylor_green.toml --set output.fields=false)
  g128=(--set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=0.01 --set solver.max_iter=200)
  g256=(--set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set time.dt=0.005 --set solver.max_iter=400)
  run tg128_gcr STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" --set time.steps=40
  run tg128_pcg STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" --set time.steps=40 --set solver.method=pcg
  run tg128_pcg_hybrid STARPU_NCPU=15 -- "${tg[@]}" "${g128[@]}" --set time.steps=40 --set solver.method=pcg --set runtime.cpu_tasks_with_gpu=true --set tiles.x=2 --set tiles.y=2
  run tg128_pcg_diag1 STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" --set time.steps=40 --set solver.method=pcg --set diagnostics.interval=1
  run tg128_pcg_diag40 STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" --set time.steps=40 --set solver.method=pcg --set diagnostics.interval=40
  run tg256_pcg STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" --set time.steps=12 --set diagnostics.interval=4 --set solver.method=pcg
  run tg256_pcg_diag1 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" --set time.steps=12 --set diagnostics.interval=1 --set solver.method=pcg
  run tg256_pcg_diag12 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" --set time.steps=12 --set diagnostics.interval=12 --set solver.method=pcg
  bub=(cases/thermal_bubble.toml --set output.fields=false)
  run bubble64_gpu STARPU_NCPU=0 -- "${bub[@]}"
  run bubble128_gpu STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600 --set diagnostics.interval=20 --set solver.method=pcg --set solver.max_iter=200
  run bubble_trace STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=4 --set diagnostics.interval=2 --set solver.method=pcg --set solver.max_iter=200 --trace "$res/bubble_trace"
  dycore_summary tg128_gcr tg128_pcg tg128_pcg_hybrid tg128_pcg_diag1 tg128_pcg_diag40 tg256_pcg tg256_pcg_diag1 \
    tg256_pcg_diag12 bubble64_gpu bubble128_gpu
fi
if want dycore_overhead; then
  # Diagnostics every step vs once per run, alternated (A B A B) to see the run-to-run spread.
  tg=(cases/taylor_green.toml --set output.fields=false --set solver.method=pcg)
  g128=(--set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=0.01 --set solver.max_iter=200 --set time.steps=200)
  g256=(--set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set time.dt=0.005 --set solver.max_iter=400 --set time.steps=30)
  for rep in 1 2; do
    run ov128_none_$rep STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" --set diagnostics.interval=200
    run ov128_every_$rep STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" --set diagnostics.interval=1
    run ov256_none_$rep STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" --set diagnostics.interval=30
    run ov256_every_$rep STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" --set diagnostics.interval=1
  done
  bub=(cases/thermal_bubble.toml --set output.fields=false --set solver.method=pcg)
  run bubble128_gpu STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600 --set diagnostics.interval=20 --set solver.max_iter=200
  run bubble128_hybrid STARPU_NCPU=15 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=100 --set diagnostics.interval=20 --set solver.max_iter=200 --set runtime.cpu_tasks_with_gpu=true --set tiles.x=2 --set tiles.y=2
  run bubble256_gpu STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set time.dt=0.5 --set time.steps=100 --set diagnostics.interval=20 --set solver.max_iter=400
  python3 - "$res" <<'PY'
import json, sys
r = sys.argv[1]
def ms(n):
    return json.load(open(f"{r}/{n}/summary.json"))["ms_per_step"]
for g in ("128", "256"):
    try:
        none = [ms(f"ov{g}_none_{k}") for k in (1, 2)]; every = [ms(f"ov{g}_every_{k}") for k in (1, 2)]
        print(f"TG {g}^3 PCG GPU: diagnostics once {none} ms/step, every step {every} ms/step: overhead %+.1f %% (min vs min), %+.1f %% (mean vs mean)"
              % (100 * (min(every) / min(none) - 1), 100 * (sum(every) / sum(none) - 1)))
    except Exception as e:
        print("overhead", g, "failed", e)
PY
  dycore_summary bubble128_gpu bubble128_hybrid bubble256_gpu
fi
if want bubble; then
  bub=(cases/thermal_bubble.toml --set output.fields=false --set solver.method=pcg)
  run bubble64_gpu STARPU_NCPU=0 -- "${bub[@]}"
  run bubble128_gpu STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600 --set diagnostics.interval=20 --set solver.max_iter=200
  run bubble128_hybrid STARPU_NCPU=15 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=100 --set diagnostics.interval=20 --set solver.max_iter=200 --set runtime.cpu_tasks_with_gpu=true --set tiles.x=2 --set tiles.y=2
  run bubble128_gpu100 STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=100 --set diagnostics.interval=20 --set solver.max_iter=200
  run bubble256_gpu STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set time.dt=0.5 --set time.steps=100 --set diagnostics.interval=20 --set solver.max_iter=400
  run tg128_gcr STARPU_NCPU=0 -- cases/taylor_green.toml --set output.fields=false --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=0.01 --set solver.max_iter=200 --set time.steps=100
  run tg64_cpu16 STARPU_NCUDA=0 STARPU_NCPU=16 -- cases/taylor_green.toml --set output.fields=false --set tiles.x=4 --set tiles.y=4 --set time.steps=40
  dycore_summary bubble64_gpu bubble128_gpu bubble128_hybrid bubble128_gpu100 bubble256_gpu tg128_gcr tg64_cpu16
fi
if want solver_stop; then
  # Session 4: the pressure solve stops on max |r| (= the bound on max |D v|) and starts from
  # 2 p^n - p^(n-1); first_guess=previous isolates the second change. Plus a GPU restart identity.
  tg=(cases/taylor_green.toml --set output.fields=false --set output.checkpoint=false)
  g128=(--set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=0.01 --set solver.max_iter=200 --set time.steps=100)
  g256=(--set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set time.dt=0.005 --set solver.max_iter=400 --set time.steps=40)
  run s4_tg128_gcr STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}"
  run s4_tg128_pcg STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" --set solver.method=pcg
  run s4_tg128_pcg_hybrid STARPU_NCPU=15 -- "${tg[@]}" "${g128[@]}" --set solver.method=pcg --set runtime.cpu_tasks_with_gpu=true --set tiles.x=2 --set tiles.y=2
  run s4_tg256_pcg STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" --set solver.method=pcg
  run s4_tg256_pcg_extrap STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" --set solver.method=pcg --set solver.first_guess='"extrapolated"'
  run s4_tg256_gcr STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}"
  bub=(cases/thermal_bubble.toml --set output.fields=false --set output.checkpoint=false --set solver.method=pcg)
  run s4_bubble64 STARPU_NCPU=0 -- "${bub[@]}"
  run s4_bubble128 STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600 --set diagnostics.interval=20 --set solver.max_iter=200
  run s4_bubble256 STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set time.dt=0.5 --set time.steps=100 --set diagnostics.interval=20 --set solver.max_iter=400
  run s4_bubble256_extrap STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set time.dt=0.5 --set time.steps=100 --set diagnostics.interval=20 --set solver.max_iter=400 --set solver.first_guess='"extrapolated"'
  rb=(cases/thermal_bubble.toml --set output.fields_interval=20)
  run s4_restart_straight STARPU_NCPU=0 -- "${rb[@]}" --set time.steps=40
  run s4_restart_half STARPU_NCPU=0 -- "${rb[@]}" --set time.steps=20
  run s4_restart_resumed STARPU_NCPU=0 -- "${rb[@]}" --set time.steps=40 --restart "$res/s4_restart_half/checkpoint.h5"
  dycore_summary s4_tg128_gcr s4_tg128_pcg s4_tg128_pcg_hybrid s4_tg256_pcg s4_tg256_pcg_extrap s4_bubble256_extrap \
    s4_tg256_gcr s4_bubble64 s4_bubble128 s4_bubble256
  python3 - "$res" <<'PY'
import json, sys
r = sys.argv[1]
try:
    a = json.load(open(f"{r}/s4_restart_straight/summary.json")); b = json.load(open(f"{r}/s4_restart_resumed/summary.json"))
    same = a["velocity_checksum"] == b["velocity_checksum"] and a["validation"] == b["validation"]
    csv = open(f"{r}/s4_restart_straight/diagnostics.csv").read() == open(f"{r}/s4_restart_resumed/diagnostics.csv").read()
    print("GPU restart: 40 steps == 20 + restart + 20 (velocity, validation):", same, "diagnostics.csv identical:", csv)
except Exception as e:
    print("restart failed", e)
PY
fi
# The multigrid runs' settings (sections multigrid, session6, session7, session7_steady; a later
# --set of the same key wins).
mg_runs() {
  tg=(cases/taylor_green.toml --set output.fields=false --set output.checkpoint=false --set solver.method=pcg)
  g128=(--set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=0.01 --set time.steps=100)
  g256=(--set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set time.dt=0.005 --set time.steps=40)
  mg=(--set solver.preconditioner='"multigrid"' --set solver.max_iter=40)
  sp=(--set solver.preconditioner='"spectral"' --set solver.max_iter=40)
  gcr=(--set solver.method='"gcr"' --set solver.preconditioner='"spectral"' --set solver.max_iter=40)
  ncu_solver=("${mg[@]}")
  bub=(cases/thermal_bubble.toml --set output.fields=false --set output.checkpoint=false --set solver.method=pcg "${mg[@]}")
}
# TG 256^3 with each build carried in the bundle (the ones present), two alternating rounds: NAME_TAG_ROUND
# (TAG: _new for this build, else the name's suffix).
variant_rounds() {
  local name=$1; shift
  for round in 1 2; do
    for exe in "$@"; do
      command -v $exe >/dev/null || continue
      tag=${exe#taskdycore}; tag=${tag:-_new}
      TDC_EXE=$exe run ${name}${tag}_$round STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}"
      dycore_summary ${name}${tag}_$round
    done
  done
}
# TG 256^3, 200 steps, GCR(3) + spectral against PCG + spectral in two alternating rounds
# (PREFIX_gcr_ROUND, PREFIX_pcg_ROUND), then a 14-step trace of the GCR run in $res/PREFIX_gcr_trace.
gcr_pcg_rounds() {
  for round in 1 2; do
    run $1_tg256_gcr_$round STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${gcr[@]}" --set time.steps=200 --set diagnostics.interval=50
    run $1_tg256_pcg_$round STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${sp[@]}" --set time.steps=200 --set diagnostics.interval=50
  done
  run $1_tg256_gcr_trace STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${gcr[@]}" --set time.steps=14 --set diagnostics.interval=7 --trace "$res/$1_gcr_trace"
}
# ncu's headline figures (duration, DRAM, SM throughput, registers, occupancy) for the kernels matching
# REGEX in one TG 256^3 step of EXE, launched directly (ncu cannot see kernels in conditional graphs):
# ncu_brief NAME EXE REGEX SKIP COUNT.
ncu_brief() {
  command -v ncu >/dev/null && command -v "$2" >/dev/null || return 0
  local secs=(--section SpeedOfLight --section Occupancy --section LaunchStats --section SchedulerStats)
  TASKDYCORE_GATED_GRAPHS=off STARPU_NCPU=0 timeout 200 ncu --target-processes all \
    --kernel-name regex:"$3" --launch-skip "$4" --launch-count "$5" "${secs[@]}" \
    "$2" run "${tg[@]}" "${g256[@]}" "${ncu_solver[@]}" --set time.steps=1 --out "$res/$1_run" > "$res/$1.txt" 2>&1
  echo "$1 exit $?"
  grep -E "^  [a-z_ ]*unnamed|Duration|DRAM Through|Registers Per|Achieved Occ|Compute \(SM\)" "$res/$1.txt" | sed -E 's/\(TileLayout.*\) \(/ (/; s/, Context.*//' | awk '/unnamed/{printf "\n%s", $0; next}{printf " | %s %s", $1" "$2, $NF}'; echo
}
if want multigrid; then
  mg_runs
  # Session 5: solver.preconditioner = multigrid (PCG) against the line preconditioner, same runs.
  run mg_tg128_line STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" --set solver.max_iter=200
  run mg_tg128_mg STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" "${mg[@]}"
  run mg_tg256_line STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" --set solver.max_iter=400
  run mg_tg256_mg STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}"
  run mg_tg256_mg_l4 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set solver.multigrid_levels=4
  run mg_bubble128 STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600 --set diagnostics.interval=20
  run mg_bubble256 STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set time.dt=0.5 --set time.steps=100 --set diagnostics.interval=20
  run mg_tg256_trace STARPU_NCPU=0 -- "${tg[@]}" "${mg[@]}" --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set time.dt=0.005 --set time.steps=12 --set diagnostics.interval=4 --trace "$res/mg_tg256_trace"
  dycore_summary mg_tg128_line mg_tg128_mg mg_tg256_line mg_tg256_mg mg_tg256_mg_l4 mg_bubble128 mg_bubble256
fi
if want session6; then
  mg_runs
  # Session 6: single-tile fast paths (one mg_vcycle task per cycle, halo_self), measured against the
  # task-per-operation cycle (solver.multigrid_one_task=false) in the same call; every step's solve checked.
  run s6_tg256_mg STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}"
  run s6_tg256_mg_200 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set time.steps=200 --set diagnostics.interval=50
  run s6_tg256_mg_graph STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set solver.multigrid_one_task=false
  run s6_tg256_mg_l4 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set solver.multigrid_levels=4
  run s6_tg256_mg_l3 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set solver.multigrid_levels=3
  run s6_tg256_line STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" --set solver.max_iter=400
  run s6_tg256_gcr STARPU_NCPU=0 -- cases/taylor_green.toml --set output.fields=false --set output.checkpoint=false "${g256[@]}" --set solver.max_iter=400
  run s6_tg128_mg STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" "${mg[@]}"
  run s6_tg128_line STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" --set solver.max_iter=200
  run s6_bubble128_mg STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600 --set diagnostics.interval=20
  run s6_bubble256_mg STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set time.dt=0.5 --set time.steps=100 --set diagnostics.interval=20
  run s6_tg256_trace STARPU_NCPU=0 -- "${tg[@]}" "${mg[@]}" --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set time.dt=0.005 --set time.steps=12 --set diagnostics.interval=4 --trace "$res/s6_tg256_trace"
  dycore_summary s6_tg256_mg s6_tg256_mg_200 s6_tg256_mg_graph s6_tg256_mg_l4 s6_tg256_mg_l3 s6_tg256_line s6_tg256_gcr s6_tg128_mg s6_tg128_line s6_bubble128_mg s6_bubble256_mg
  python3 -c "
import json
a=json.load(open('$res/s6_tg256_mg/summary.json')); b=json.load(open('$res/s6_tg256_mg_graph/summary.json'))
print('TG 256^3 MG one-task vs task graph: velocity bitwise equal:', a['velocity_checksum']==b['velocity_checksum'], 'steps checked', a['solver']['steps_checked'], 'unconverged', a['solver']['unconverged_steps'])" || true
  bench s6_mpdata_1x1 STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off
fi
if want session7; then
  mg_runs
  # Session 7: multigrid PCG in the fused form (Alg. 2-3 with the V-cycle as preconditioner) against
  # the unfused form in the same call (per-codelet times of steady steps: section session7_steady).
  run s7_tg256_mg STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}"
  run s7_tg256_mg_unfused STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set solver.fused=false
  run s7_tg128_mg STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" "${mg[@]}"
  run s7_bubble128_mg STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600 --set diagnostics.interval=20
  dycore_summary s7_tg256_mg s7_tg256_mg_unfused s7_tg128_mg s7_bubble128_mg
  bench_elliptic s7_ell_gpu_1x1 STARPU_NCPU=0 -- --grid 256x256x128 --iterations 50 --repeat 3
fi
if want session7_steady; then
  mg_runs
  # Steady-state TG 256^3 steps (multigrid PCG, fused) and a trace of 14 steps for
  # `tools/trace DIR --steps 3` (the budget leaves solver.max_iter after step 8).
  run s7_tg256 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}"
  run s7_tg128 STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" "${mg[@]}"
  dycore_summary s7_tg256 s7_tg128
  run s7_tg256_trace STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set time.steps=14 --set diagnostics.interval=7 --trace "$res/s7_tg256_trace"
  bench_elliptic s7_ell STARPU_NCPU=0 -- --grid 256x256x128 --iterations 50 --repeat 3
fi
if want session8; then
  mg_runs
  # Session 8, A/B in one call: this build against the session-7 build carried as bin/taskdycore_s7
  # (zero-aware division, dot_partial loads). Same bits expected: the checksums must agree.
  builds=(taskdycore); command -v taskdycore_s7 >/dev/null && builds+=(taskdycore_s7)
  for exe in "${builds[@]}"; do
    tag=${exe#taskdycore}; tag=${tag:-_new}
    TDC_EXE=$exe bench s8_fct$tag STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off
    TDC_EXE=$exe bench s8_nofct$tag STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off --fct off
    TDC_EXE=$exe bench s8_fused$tag STARPU_NCPU=0 TASKDYCORE_KERNEL=fused -- "${g[@]}" --tiles 1x1 --overlap off
    TDC_EXE=$exe run s8_tg256$tag STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}"
    TDC_EXE=$exe run s8_tg256_trace$tag STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set time.steps=14 --set diagnostics.interval=7 --trace "$res/s8_tg256_trace$tag"
    dycore_summary s8_tg256$tag
  done
  same_bits s8_tg256_new s8_tg256_s7
  run s8_bubble128 STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600 --set diagnostics.interval=20
  run s8_tg128 STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" "${mg[@]}"
  dycore_summary s8_bubble128 s8_tg128
  objdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
  if [ -x "$objdump" ]; then
    # Calls to the general double-division routine per MPDATA stage kernel (SASS of this build).
    "$objdump" -sass "$(command -v taskdycore)" > "$res/sass.txt" 2>&1
    python3 - "$res/sass.txt" <<'PY'
import re, sys
fn, counts = None, {}
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"Function : (\S+)", line)
    if m: fn = m.group(1); counts[fn] = [0, 0]; continue
    if fn and re.search(r"\bCALL\b", line): counts[fn][0] += 1
    if fn and re.search(r"/\*[0-9a-f]{4}\*/", line): counts[fn][1] += 1
for f, (calls, n) in counts.items():
    if re.search(r"antidiffusive|upwind|fct_beta|fused_kernel|dot_kernel", f): print("sass", f[:90], "instructions", n, "calls", calls)
PY
  fi
fi
if want session9_params; then
  mg_runs
  # Session 9: TG 256^3 multigrid PCG under other solver settings (iterations vs cost per iteration).
  run s9_base STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}"
  run s9_extrap STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set solver.first_guess='"extrapolated"'
  run s9_omega08 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set solver.multigrid_omega=0.8
  run s9_omega095 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set solver.multigrid_omega=0.95
  run s9_levels7 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set solver.multigrid_levels=7
  run s9_levels5 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set solver.multigrid_levels=5
  run s9_coarse8 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set solver.multigrid_coarse_sweeps=8
  run s9_extrap_trace STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set solver.first_guess='"extrapolated"' --set time.steps=14 --set diagnostics.interval=7 --trace "$res/s9_extrap_trace"
  dycore_summary s9_base s9_extrap s9_omega08 s9_omega095 s9_levels7 s9_levels5 s9_coarse8
fi
if want session9; then
  mg_runs
  # Session 9, A/B in one call: this build against the build before it, carried as bin/taskdycore_base
  # (G = 1 MPDATA kernels in the dynamical core, gated V-cycle and vector updates). Same bits expected.
  builds=(taskdycore); command -v taskdycore_base >/dev/null && builds+=(taskdycore_base)
  for exe in "${builds[@]}"; do
    tag=${exe#taskdycore}; tag=${tag:-_new}
    TDC_EXE=$exe run s9_tg256$tag STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}"
    TDC_EXE=$exe run s9_tg256_trace$tag STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set time.steps=14 --set diagnostics.interval=7 --trace "$res/s9_tg256_trace$tag"
    dycore_summary s9_tg256$tag
  done
  same_bits s9_tg256_new s9_tg256_base
  # MPDATA: the standard bench (FCT, G as an array, as the roofline counts it) and the dynamical
  # core's form (infinite gauge), each with G read and with the G = 1 kernels.
  bench s9_fct STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off
  bench s9_fct_unit STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off --density unit
  bench s9_fct_iga STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off --iga on
  bench s9_fct_iga_unit STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off --iga on --density unit
  run s9_bubble128 STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600 --set diagnostics.interval=20
  run s9_tg128 STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" "${mg[@]}"
  dycore_summary s9_bubble128 s9_tg128
fi
if want session10; then
  mg_runs
  # Session 10, A/B in one call against bin/taskdycore_base (the session-9 build): the fused PCG's
  # multigrid step as one task (update and sums inside the V-cycle's finest sweeps) and the MPDATA
  # stage kernels templated on the gauge. Same bits expected.
  variant_rounds s10_tg256 taskdycore taskdycore_base
  same_bits s10_tg256_new_1 s10_tg256_base_1
  builds=(taskdycore); command -v taskdycore_base >/dev/null && builds+=(taskdycore_base)
  for exe in "${builds[@]}"; do
    tag=${exe#taskdycore}; tag=${tag:-_new}
    TDC_EXE=$exe run s10_tg256_trace$tag STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set time.steps=14 --set diagnostics.interval=7 --trace "$res/s10_tg256_trace$tag"
    TDC_EXE=$exe bench s10_fct$tag STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off
    TDC_EXE=$exe bench s10_fct_iga_unit$tag STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off --iga on --density unit
  done
  run s10_bubble128 STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600 --set diagnostics.interval=20
  run s10_bubble128_kappa STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600 --set diagnostics.interval=20 --set physics.diffusivity=5.0
  run s10_tg128 STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" "${mg[@]}"
  dycore_summary s10_bubble128 s10_bubble128_kappa s10_tg128
fi
if want session10_apply; then
  mg_runs
  # Session 10: variants carried beside this build, A/B/C in one call: bin/taskdycore_v1 (pcg_fused_apply
  # as a block per group, gated) and bin/taskdycore_base (the session-9 build).
  variant_rounds s10a_tg256 taskdycore taskdycore_v1 taskdycore_base
  same_bits s10a_tg256_new_1 s10a_tg256_v1_1
  TDC_EXE=taskdycore_v1 run s10a_tg256_trace_v1 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set time.steps=14 --set diagnostics.interval=7 --trace "$res/s10a_tg256_trace_v1"
  for exe in taskdycore taskdycore_base; do
    tag=${exe#taskdycore}; tag=${tag:-_new}
    TDC_EXE=$exe bench s10a_fct$tag STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off
  done
fi
if want session10_split; then
  mg_runs
  # Session 10: bin/taskdycore_split (the PCG step's last finest sweep as prolong_add + a Jacobi sweep
  # reading periodic images, instead of the prolongation formed per neighbour) against this build
  # and bin/taskdycore_base, alternating, in one call.
  variant_rounds s10s_tg256 taskdycore taskdycore_split taskdycore_base
  same_bits s10s_tg256_new_1 s10s_tg256_split_1
  same_bits s10s_tg256_new_1 s10s_tg256_base_1
  ncu_brief ncu_split taskdycore_split 'prolong_kernel|prolong_sweep_dot' 12 6
fi
if want session10_strides; then
  mg_runs
  # Session 10: the stride-constant kernels against bin/taskdycore_prev (the build before them) and
  # bin/taskdycore_base (the session-9 build), alternating, in one call; then ncu of the finest sweeps.
  variant_rounds s10c_tg256 taskdycore taskdycore_prev taskdycore_base
  same_bits s10c_tg256_new_1 s10c_tg256_prev_1
  same_bits s10c_tg256_new_1 s10c_tg256_base_1
  run s10c_tg256_trace STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set time.steps=14 --set diagnostics.interval=7 --trace "$res/s10c_tg256_trace"
  ncu_brief ncu_strides taskdycore 'update_first_sweep|restrict_kernel|prolong_sweep_dot|fused_apply_kernel' 6 8
fi
if want session10_pairs; then
  mg_runs
  # Session 10: bin/taskdycore_pairs (pcg_fused_apply with two groups per block, two cells per thread)
  # against this build, alternating, in one call; the elliptic bench with both; ncu of its apply.
  variant_rounds s10p_tg256 taskdycore taskdycore_pairs
  same_bits s10p_tg256_new_1 s10p_tg256_pairs_1
  for exe in taskdycore taskdycore_pairs; do
    TDC_EXE=$exe bench_elliptic s10p_ell_${exe} STARPU_NCPU=0 -- --grid 256x256x128 --iterations 50 --repeat 3 --csr off --tolerances off
  done
  ncu_brief ncu_pairs taskdycore_pairs 'fused_apply_kernel' 3 2
fi
if want session10_fold; then
  mg_runs
  # Session 10: the solver_scalars steps folded into their producers (a single tile) against
  # bin/taskdycore_prev (the stride-constant build) and bin/taskdycore_base (session 9), in one call;
  # the elliptic bench (line-preconditioned fused PCG, issue 4) with this build and the previous one.
  variant_rounds s10f_tg256 taskdycore taskdycore_prev taskdycore_base
  same_bits s10f_tg256_new_1 s10f_tg256_prev_1
  same_bits s10f_tg256_new_1 s10f_tg256_base_1
  run s10f_tg256_trace STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set time.steps=14 --set diagnostics.interval=7 --trace "$res/s10f_tg256_trace"
  for exe in taskdycore taskdycore_prev; do
    TDC_EXE=$exe bench_elliptic s10f_ell_${exe} STARPU_NCPU=0 -- --grid 256x256x128 --iterations 50 --repeat 3 --tolerances off
  done
  run s10f_bubble128 STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600 --set diagnostics.interval=20
  run s10f_tg128 STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" "${mg[@]}"
  dycore_summary s10f_bubble128 s10f_tg128
fi
if want session10_fold_elliptic; then
  # Session 10: the elliptic bench (line-preconditioned fused PCG, 1 tile) with the folded scalars
  # steps and without (bin/taskdycore_prev), alternating, three rounds, then a trace of each.
  for round in 1 2 3; do
    for exe in taskdycore taskdycore_prev; do
      TDC_EXE=$exe bench_elliptic s10e_ell_${exe}_$round STARPU_NCPU=0 -- --grid 256x256x128 --iterations 50 --repeat 5 --csr off --tolerances off
    done
  done
  for exe in taskdycore taskdycore_prev; do
    TDC_EXE=$exe run s10e_ts_trace_$exe STARPU_NCPU=0 -- cases/thin_shell_elliptic.toml --set grid.nx=256 --set grid.ny=256 --set grid.nz=128 \
      --set output.fields=false --set shell.rhs=random --set solver.tol_rel=1e-5 --trace "$res/s10e_ts_trace_$exe"
  done
fi
if want session10_halo; then
  mg_runs
  # Session 10: z read at periodic images in the apply (no halo task for z on the one-task multigrid
  # path) against bin/taskdycore_prev (the folded-scalars build) and bin/taskdycore_base (session 9).
  variant_rounds s10z_tg256 taskdycore taskdycore_prev taskdycore_base
  same_bits s10z_tg256_new_1 s10z_tg256_prev_1
  same_bits s10z_tg256_new_1 s10z_tg256_base_1
  run s10z_tg256_trace STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set time.steps=14 --set diagnostics.interval=7 --trace "$res/s10z_tg256_trace"
  run s10z_bubble128 STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600 --set diagnostics.interval=20
  run s10z_tg128 STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" "${mg[@]}"
  dycore_summary s10z_bubble128 s10z_tg128
fi
if want session10_restrict; then
  mg_runs
  # Session 10: __restrict__ on the pointers of the MPDATA stage, pressure-gradient, divergence,
  # advector and buoyancy kernels, against bin/taskdycore_prev (the build before), in one call.
  variant_rounds s10r_tg256 taskdycore taskdycore_prev
  same_bits s10r_tg256_new_1 s10r_tg256_prev_1
  run s10r_tg256_trace STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set time.steps=14 --set diagnostics.interval=7 --trace "$res/s10r_tg256_trace"
  TDC_EXE=taskdycore_prev run s10r_tg256_trace_prev STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set time.steps=14 --set diagnostics.interval=7 --trace "$res/s10r_tg256_trace_prev"
  for round in 1 2; do
    for exe in taskdycore taskdycore_prev; do
      TDC_EXE=$exe bench s10r_fct_${exe}_$round STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off
      TDC_EXE=$exe bench s10r_fct_iga_unit_${exe}_$round STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off --iga on --density unit
    done
  done
fi
if want session10_start; then
  mg_runs
  # Session 10: pcg_start (a solve's residual and zeroings in one pass) against bin/taskdycore_prev.
  variant_rounds s10t_tg256 taskdycore taskdycore_prev
  same_bits s10t_tg256_new_1 s10t_tg256_prev_1
  run s10t_tg256_trace STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set time.steps=14 --set diagnostics.interval=7 --trace "$res/s10t_tg256_trace"
  run s10t_bubble128 STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600 --set diagnostics.interval=20
  run s10t_tg128 STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" "${mg[@]}"
  dycore_summary s10t_bubble128 s10t_tg128
fi
if want ncu_session10 && command -v ncu >/dev/null; then
  mg_runs
  keys='^  [a-z_]+.*\(|Duration|DRAM Throughput|Memory Throughput|L2 Hit|L1/TEX Hit|Achieved Occupancy|Theoretical Occupancy|Registers Per|Compute \(SM\) Throughput|Executed Ipc A|Stall|One or More Eligible|Block Limit'
  secs=(--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats)
  # The solver's kernels in the dynamical core at 256^3, launched directly (ncu cannot profile kernels
  # inside graphs with conditional nodes).
  TASKDYCORE_GATED_GRAPHS=off STARPU_NCPU=0 timeout 300 ncu --target-processes all \
    --kernel-name regex:'update_first_sweep|prolong_sweep_dot|fused_apply_kernel' --launch-skip 3 --launch-count 6 "${secs[@]}" \
    taskdycore run "${tg[@]}" "${g256[@]}" "${mg[@]}" --set time.steps=2 --out "$res/ncu_s10_run" > "$res/ncu_s10_solver.txt" 2>&1
  echo "ncu solver exit $?"; grep -E "$keys" "$res/ncu_s10_solver.txt" | head -150
  # The fused apply at 256^3 through the elliptic bench (line-preconditioned PCG, same kernel).
  STARPU_NCPU=0 timeout 240 ncu --target-processes all --kernel-name regex:'fused_apply_kernel' --launch-skip 10 --launch-count 2 "${secs[@]}" \
    taskdycore bench elliptic --grid 256x256x256 --iterations 10 --repeat 1 --csr off --tolerances off > "$res/ncu_s10_apply.txt" 2>&1
  echo "ncu apply exit $?"; grep -E "$keys" "$res/ncu_s10_apply.txt" | head -60
fi
if want ncu_mpdata && command -v ncu >/dev/null; then
  # The MPDATA kernels of the direct runner (same kernels as the graph, launched back to back).
  STARPU_NCPU=0 timeout 300 ncu --target-processes all --kernel-name regex:'upwind|antidiffusive|fct_beta|limited|fused_kernel' \
    --launch-skip 20 --launch-count 8 --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
    taskdycore bench mpdata --grid 256x256x256 --steps 3 --repeat 1 --warmup 1 --tiles 1x1 --overlap off > "$res/ncu_mpdata.txt" 2>&1
  echo "ncu exit $?"; grep -E '^  [a-z_]+.*\(|DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per|Duration|FP64|Compute \(SM\) Throughput' "$res/ncu_mpdata.txt" | head -80
  STARPU_NCPU=0 TASKDYCORE_KERNEL=fused timeout 300 ncu --target-processes all --kernel-name regex:'fused_kernel' \
    --launch-skip 4 --launch-count 2 --section SpeedOfLight --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis \
    taskdycore bench mpdata --grid 256x256x256 --steps 3 --repeat 1 --warmup 1 --tiles 1x1 --overlap off > "$res/ncu_mpdata_fused.txt" 2>&1
  echo "ncu fused exit $?"; grep -E '^  [a-z_]+.*\(|DRAM Throughput|Achieved Occupancy|Registers Per|Duration|Compute \(SM\) Throughput|Block Limit' "$res/ncu_mpdata_fused.txt" | head -30
fi
if want session9_bounds; then
  mg_runs
  # Session 9: MPDATA kernels under register caps (more resident warps), as builds carried beside this
  # one: bin/taskdycore_v1 (antidiffusive __launch_bounds__(128,10), fct_beta (128,12)) and _v2 (both (128,12)).
  for exe in taskdycore taskdycore_v1 taskdycore_v2 taskdycore_base; do
    command -v $exe >/dev/null || continue
    tag=${exe#taskdycore}; tag=${tag:-_new}
    TDC_EXE=$exe bench s9b_fct_iga_unit$tag STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off --iga on --density unit
    TDC_EXE=$exe bench s9b_fct$tag STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off
    TDC_EXE=$exe run s9b_tg256$tag STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}"
    dycore_summary s9b_tg256$tag
  done
fi
if want ncu_dycore && command -v ncu >/dev/null; then
  mg_runs
  # Session 9: the TG 256^3 step's main kernels under ncu (past the start-up solves), solver then MPDATA.
  keys='^  [a-z_]+.*\(|Duration|DRAM Throughput|Memory Throughput|L2 Hit|L1/TEX Hit|Achieved Occupancy|Theoretical Occupancy|Registers Per|Compute \(SM\) Throughput|Executed Ipc A|Stall|One or More Eligible'
  STARPU_NCPU=0 timeout 280 ncu --target-processes all --kernel-name regex:'fused_apply_kernel|dot_kernel|update_kernel|jacobi_kernel|prolong_sweep_kernel' \
    --launch-skip 400 --launch-count 10 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
    taskdycore run "${tg[@]}" "${g256[@]}" "${mg[@]}" --set time.steps=4 --out "$res/ncu_solver_run" > "$res/ncu_solver.txt" 2>&1
  echo "ncu solver exit $?"; grep -E "$keys" "$res/ncu_solver.txt" | head -120
  STARPU_NCPU=0 timeout 280 ncu --target-processes all --kernel-name regex:'antidiffusive_kernel|fct_beta_kernel|limited_upwind_kernel|upwind_kernel' \
    --launch-skip 8 --launch-count 4 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
    taskdycore run "${tg[@]}" "${g256[@]}" "${mg[@]}" --set time.steps=4 --out "$res/ncu_mpdata_run" > "$res/ncu_mpdata_dycore.txt" 2>&1
  echo "ncu mpdata exit $?"; grep -E "$keys" "$res/ncu_mpdata_dycore.txt" | head -60
fi
if want session11_mg; then
  mg_runs
  # Session 11: the single-tile V-cycle forms the first sweep (w r, w = omega/diag stored per level) where
  # it is read instead of storing it; against the session-10 build (bin/taskdycore_base). Bits change
  # (omega r / diag became (omega / diag) r), so the A/B compares times, iterations and validation.
  variant_rounds s11m_tg256 taskdycore taskdycore_base
  run s11m_tg256_trace STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set time.steps=14 --set diagnostics.interval=7 --trace "$res/s11m_tg256_trace"
  run s11m_bubble128 STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600 --set diagnostics.interval=20
  TDC_EXE=taskdycore_base run s11m_bubble128_base STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600 --set diagnostics.interval=20
  run s11m_tg128 STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" "${mg[@]}"
  TDC_EXE=taskdycore_base run s11m_tg128_base STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" "${mg[@]}"
  dycore_summary s11m_bubble128 s11m_bubble128_base s11m_tg128 s11m_tg128_base
  ncu_brief ncu_s11m taskdycore 'vector_update|restrict_first_sweep|prolong_sweep_dot|fused_apply_kernel' 4 8
fi
if want session12_spectral; then
  mg_runs
  # Session 12: the spectral preconditioner (exact inverse of laplc by Hartley transforms: one PCG
  # iteration per step) against the multigrid V-cycle, same build, alternating rounds.
  TASKDYCORE_GATED_GRAPHS=off timeout 60 test_kernels --gtest_filter='Spectral*' > "$res/test_spectral_ungated.txt" 2>&1
  echo "spectral kernel tests, gates off: exit $? $(grep -E '^\[  (PASSED|FAILED)' "$res/test_spectral_ungated.txt" | tr '\n' ' ')"
  grep -A3 "Failure" "$res/test_kernels.txt" | grep -E "first at|Failure" | head -8
  sp64=(cases/taylor_green.toml --set output.fields=false --set output.checkpoint=false --set solver.method=pcg "${sp[@]}" --set time.steps=50)
  run s12_tg64_cpu STARPU_NCUDA=0 STARPU_NCPU=8 -- "${sp64[@]}"
  run s12_tg64_gpu STARPU_NCPU=0 -- "${sp64[@]}"
  python3 -c "import json; a, b = (json.load(open('$res/s12_tg64_' + w + '/summary.json'))['velocity_checksum'] for w in ('cpu', 'gpu')); print('TG 64^3 spectral, 50 steps: CPU vs GPU velocity checksum', a, b, 'equal' if a == b else 'DIFFER')"
  for round in 1 2; do
    run s12_tg256_spectral_$round STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${sp[@]}"
    run s12_tg256_mg_$round STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}"
  done
  # 200 steps: the start-up (graph captures, the first steps' full iteration budget) spread thinner.
  run s12_tg256_spectral_200 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${sp[@]}" --set time.steps=200 --set diagnostics.interval=50
  run s12_tg256_mg_200 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set time.steps=200 --set diagnostics.interval=50
  run s12_tg256_trace STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${sp[@]}" --set time.steps=14 --set diagnostics.interval=7 --trace "$res/s12_tg256_trace"
  run s12_tg256_hybrid -- "${tg[@]}" "${g256[@]}" "${sp[@]}"
  run s12_tg128_spectral STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" "${sp[@]}"
  run s12_tg128_mg STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" "${mg[@]}"
  b128=(--set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600 --set diagnostics.interval=20)
  run s12_bubble128_spectral STARPU_NCPU=0 -- "${bub[@]}" "${b128[@]}" "${sp[@]}"
  run s12_bubble128_mg STARPU_NCPU=0 -- "${bub[@]}" "${b128[@]}"
  run s12_bubble256_spectral STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set time.dt=0.5 --set time.steps=100 --set diagnostics.interval=20 "${sp[@]}"
  dycore_summary s12_tg256_spectral_1 s12_tg256_mg_1 s12_tg256_spectral_2 s12_tg256_mg_2 s12_tg256_spectral_200 s12_tg256_mg_200 s12_tg256_hybrid s12_tg128_spectral \
    s12_tg128_mg s12_bubble128_spectral s12_bubble128_mg s12_bubble256_spectral
  ncu_solver=("${sp[@]}")
  ncu_brief ncu_s12 taskdycore 'hartley_pass' 0 10
fi
if want session13; then
  mg_runs
  # Session 13: the spectral PCG step's r update fused into its <r, r> pass (with <r, z> skipped with
  # the solve), the spectral warm-up budget (4, not solver.max_iter), and the forced velocity written
  # beside v^n (no v^(n-1) copies). A/B against bin/taskdycore_base (commit 576a3f0) when carried,
  # alternating rounds; the two builds must give the same bits.
  sp64=(cases/taylor_green.toml --set output.fields=false --set output.checkpoint=false --set solver.method=pcg "${sp[@]}" --set time.steps=50)
  run s13_tg64_cpu STARPU_NCUDA=0 STARPU_NCPU=8 -- "${sp64[@]}"
  run s13_tg64_gpu STARPU_NCPU=0 -- "${sp64[@]}"
  python3 -c "import json; a, b = (json.load(open('$res/s13_tg64_' + w + '/summary.json'))['velocity_checksum'] for w in ('cpu', 'gpu')); print('TG 64^3 spectral, 50 steps: CPU vs GPU velocity checksum', a, b, 'equal' if a == b else 'DIFFER')"
  for round in 1 2; do
    for exe in taskdycore taskdycore_base; do
      command -v $exe >/dev/null || continue
      tag=${exe#taskdycore}; tag=${tag:-_new}
      TDC_EXE=$exe run s13_tg256_200${tag}_$round STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${sp[@]}" --set time.steps=200 --set diagnostics.interval=50
      TDC_EXE=$exe run s13_tg256_40${tag}_$round STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${sp[@]}"
    done
  done
  command -v taskdycore_base >/dev/null && same_bits s13_tg256_200_new_1 s13_tg256_200_base_1
  run s13_tg256_trace STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${sp[@]}" --set time.steps=14 --set diagnostics.interval=7 --trace "$res/s13_tg256_trace"
  run s13_tg128 STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" "${sp[@]}"
  b128=(--set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600 --set diagnostics.interval=20)
  run s13_bubble128 STARPU_NCPU=0 -- "${bub[@]}" "${b128[@]}" "${sp[@]}"
  dycore_summary s13_tg64_gpu s13_tg256_200_new_1 s13_tg256_200_base_1 s13_tg256_40_new_1 s13_tg256_40_base_1 \
    s13_tg256_200_new_2 s13_tg256_200_base_2 s13_tg256_40_new_2 s13_tg256_40_base_2 s13_tg256_trace s13_tg128 s13_bubble128
fi
if want session13b; then
  mg_runs
  # Session 13, second call: GCR(3) with the spectral preconditioner against PCG (TG 256^3, 200 steps,
  # alternating); the kinetic-energy rise at 256^3 against dt (records every 0.05 time units); CPU+GPU;
  # the fused PCG without the z halo on one tile (bench elliptic, A/B with bin/taskdycore_base; that
  # change measured no gain and was reverted, so on later builds the two benches run the same code).
  gcr_pcg_rounds s13b
  run s13b_ke_dt005 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${sp[@]}" --set time.steps=200 --set diagnostics.interval=10
  run s13b_ke_dt0025 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${sp[@]}" --set time.dt=0.0025 --set time.steps=400 --set diagnostics.interval=20
  run s13b_ke_dt00125 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${sp[@]}" --set time.dt=0.00125 --set time.steps=800 --set diagnostics.interval=40
  python3 - "$res" <<'PY'
import json, sys
for n in ("s13b_ke_dt005", "s13b_ke_dt0025", "s13b_ke_dt00125"):
    try:
        s = json.load(open(f"{sys.argv[1]}/{n}/summary.json")); ke = s["validation"]["kinetic_energy"]
        rises = [(round(t, 3), (b - a) / a) for t, a, b in zip(ke["time"][1:], ke["value"], ke["value"][1:]) if b > a]
        print(n, "dt", s["dt"], "KE", ke["value"][0], "->", ke["value"][-1], "max relative rise", s["validation"]["kinetic_energy_max_relative_rise"],
              "rises (t, rel):", [(t, "%.2e" % r) for t, r in rises][:8])
    except Exception as e:
        print(n, "failed", e)
PY
  run s13b_tg256_hybrid_40 -- "${tg[@]}" "${g256[@]}" "${sp[@]}"
  run s13b_tg256_hybrid_200 -- "${tg[@]}" "${g256[@]}" "${sp[@]}" --set time.steps=200 --set diagnostics.interval=50
  run s13b_tg128_hybrid -- "${tg[@]}" "${g128[@]}" "${sp[@]}"
  dycore_summary s13b_tg256_pcg_1 s13b_tg256_gcr_1 s13b_tg256_pcg_2 s13b_tg256_gcr_2 s13b_tg256_gcr_trace s13b_ke_dt005 s13b_ke_dt0025 \
    s13b_ke_dt00125 s13b_tg256_hybrid_40 s13b_tg256_hybrid_200 s13b_tg128_hybrid
  e=(--grid 256x256x128 --iterations 50 --repeat 3)
  bench_elliptic s13b_ell_new STARPU_NCPU=0 -- "${e[@]}"
  command -v taskdycore_base >/dev/null && TDC_EXE=taskdycore_base bench_elliptic s13b_ell_base STARPU_NCPU=0 -- "${e[@]}" --csr off
  bench_elliptic s13b_ell_new_2 STARPU_NCPU=0 -- "${e[@]}" --csr off
fi
if want session13c; then
  mg_runs
  # Session 13, third call: GCR(3) + spectral with its apply/direction kernels gated and one direction
  # slot zeroed; TG 256^3 with the CUDA modules loaded eagerly (CUDA_MODULE_LOADING=EAGER) against the
  # default lazy loading, 40 and 200 steps, alternating.
  for round in 1 2; do
    run s13c_tg256_gcr_$round STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${gcr[@]}" --set time.steps=200 --set diagnostics.interval=50
    for mode in lazy eager; do  # the whole process's wall time too: eager loading moves work before the loop
      t0=$EPOCHREALTIME
      run s13c_tg256_40_${mode}_$round STARPU_NCPU=0 CUDA_MODULE_LOADING=${mode^^} -- "${tg[@]}" "${g256[@]}" "${sp[@]}"
      echo "s13c_tg256_40_${mode}_$round process wall $(python3 -c "print(round($EPOCHREALTIME - $t0, 2))") s"
    done
    run s13c_tg256_200_lazy_$round STARPU_NCPU=0 CUDA_MODULE_LOADING=LAZY -- "${tg[@]}" "${g256[@]}" "${sp[@]}" --set time.steps=200 --set diagnostics.interval=50
    run s13c_tg256_200_eager_$round STARPU_NCPU=0 CUDA_MODULE_LOADING=EAGER -- "${tg[@]}" "${g256[@]}" "${sp[@]}" --set time.steps=200 --set diagnostics.interval=50
  done
  run s13c_tg256_gcr_trace STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${gcr[@]}" --set time.steps=14 --set diagnostics.interval=7 --trace "$res/s13c_gcr_trace"
  dycore_summary s13c_tg256_gcr_1 s13c_tg256_gcr_2 s13c_tg256_40_lazy_1 s13c_tg256_40_eager_1 s13c_tg256_40_lazy_2 s13c_tg256_40_eager_2 \
    s13c_tg256_200_lazy_1 s13c_tg256_200_eager_1 s13c_tg256_200_lazy_2 s13c_tg256_200_eager_2 s13c_tg256_gcr_trace
  for n in s13c_tg256_40_lazy_1 s13c_tg256_40_eager_1; do echo "$n wall $(grep -o '"wall_seconds": [0-9.]*' "$res/$n/summary.json")"; done
fi
if want session13d; then
  mg_runs
  # Session 13, fourth call: the GCR kernels instantiated per live direction count (and the spectral
  # form's first iteration without updates): TG 256^3 GCR(3) + spectral against PCG, the thin-shell
  # bench (GCR with line solves) against the session-12 build.
  gcr_pcg_rounds s13d
  run s13d_tg128_gcr_line STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" --set solver.method='"gcr"' --set solver.preconditioner='"line"' --set solver.max_iter=200
  command -v taskdycore_base >/dev/null && TDC_EXE=taskdycore_base run s13d_tg128_gcr_line_base STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" --set solver.method='"gcr"' --set solver.preconditioner='"line"' --set solver.max_iter=200
  command -v taskdycore_base >/dev/null && same_bits s13d_tg128_gcr_line s13d_tg128_gcr_line_base
  dycore_summary s13d_tg256_gcr_1 s13d_tg256_pcg_1 s13d_tg256_gcr_2 s13d_tg256_pcg_2 s13d_tg256_gcr_trace s13d_tg128_gcr_line s13d_tg128_gcr_line_base
  e=(--grid 256x256x128 --iterations 50 --repeat 3 --csr off)
  bench_elliptic s13d_ell_new STARPU_NCPU=0 -- "${e[@]}"
  command -v taskdycore_base >/dev/null && TDC_EXE=taskdycore_base bench_elliptic s13d_ell_base STARPU_NCPU=0 -- "${e[@]}" --tolerances off
fi
if want session13e; then
  mg_runs
  # Session 13, last call: the fused residual codelets (GCR's start and update with their sums): TG 256^3
  # GCR(3) + spectral against PCG, alternating; the thin-shell bench.
  gcr_pcg_rounds s13e
  run s13e_tg256_gcr_40 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${gcr[@]}"
  run s13e_tg128_gcr_line STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" --set solver.method='"gcr"' --set solver.preconditioner='"line"' --set solver.max_iter=200
  dycore_summary s13e_tg256_gcr_1 s13e_tg256_pcg_1 s13e_tg256_gcr_2 s13e_tg256_pcg_2 s13e_tg256_gcr_40 s13e_tg256_gcr_trace s13e_tg128_gcr_line
  python3 -c "import json; print('GCR 256^3 checksum', json.load(open('$res/s13e_tg256_gcr_1/summary.json'))['velocity_checksum'])"
  bench_elliptic s13e_ell STARPU_NCPU=0 -- --grid 256x256x128 --iterations 50 --repeat 3
fi
if want session14; then
  # Session 14: the line-preconditioned PCG in two passes (codelets/pcg_line: no q, the forward sweep's
  # w recomputed in chunks) against the session-13 build (bin/taskdycore_base), alternating, with
  # cuSPARSE in the first round; 2x2 tiles (ghost rings and the ring update) and 512x512x128; the
  # thin-shell case GPU (1 tile) vs 16 CPUs (4x4 tiles) bitwise; ncu of the two new kernels.
  e=(--grid 256x256x128 --iterations 50 --repeat 3)
  for round in 1 2 3; do
    if [ $round = 1 ]; then bench_elliptic s14_ell_new_$round STARPU_NCPU=0 -- "${e[@]}"
    else bench_elliptic s14_ell_new_$round STARPU_NCPU=0 -- "${e[@]}" --csr off --tolerances off; fi
    command -v taskdycore_base >/dev/null && TDC_EXE=taskdycore_base bench_elliptic s14_ell_base_$round STARPU_NCPU=0 -- "${e[@]}" --csr off --tolerances off
  done
  bench_elliptic s14_ell_2x2 STARPU_NCPU=0 -- "${e[@]}" --tiles 2x2 --csr off --tolerances off
  command -v taskdycore_base >/dev/null && TDC_EXE=taskdycore_base bench_elliptic s14_ell_2x2_base STARPU_NCPU=0 -- "${e[@]}" --tiles 2x2 --csr off --tolerances off
  bench_elliptic s14_ell_512 STARPU_NCPU=0 -- --grid 512x512x128 --iterations 30 --repeat 3 --csr off --tolerances off
  ts=(cases/thin_shell_elliptic.toml --set grid.nx=256 --set grid.ny=256 --set grid.nz=128 --set output.fields=false)
  run s14_ts_gpu_pcg STARPU_NCPU=0 -- "${ts[@]}"
  run s14_ts_cpu_pcg STARPU_NCUDA=0 STARPU_NCPU=16 -- "${ts[@]}" --set tiles.x=4 --set tiles.y=4
  run s14_ts_gpu_pcg_2x2 STARPU_NCPU=0 -- "${ts[@]}" --set tiles.x=2 --set tiles.y=2
  python3 - "$res" <<'PY'
import json, sys
r = sys.argv[1]
a = json.load(open(f"{r}/s14_ts_gpu_pcg/summary.json"))
for other in ("s14_ts_cpu_pcg", "s14_ts_gpu_pcg_2x2"):
    b = json.load(open(f"{r}/{other}/summary.json"))
    same = a["solver"]["residual_history"] == b["solver"]["residual_history"] and a["solution_checksum"] == b["solution_checksum"]
    print("thin shell 256x256x128 PCG: GPU 1 tile vs", other, "history and solution bitwise equal:", same)
print("iterations", a["solver"]["iterations"], "| error_l2", a["validation"]["error_l2"])
PY
  if command -v ncu >/dev/null; then
    keys='^  [a-z_]+.*\(|Duration|DRAM Throughput|Memory Throughput|L2 Hit|L1/TEX Hit|Achieved Occupancy|Registers Per|Compute \(SM\) Throughput|Executed Ipc A'
    TASKDYCORE_GATED_GRAPHS=off STARPU_NCPU=0 timeout 240 ncu --target-processes all --kernel-name regex:'line_step_kernel|line_update_kernel|line_direction_dot_kernel' \
      --launch-skip 30 --launch-count 6 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
      taskdycore bench elliptic --grid 256x256x128 --iterations 10 --repeat 1 --csr off --tolerances off > "$res/s14_ncu.txt" 2>&1
    echo "ncu exit $?"; grep -E "$keys" "$res/s14_ncu.txt" | head -60
  fi
fi
if want session14b; then
  # Session 14, later calls: the pcg_line kernels after each change, alternating with the session-13
  # build, and under ncu.
  e=(--grid 256x256x128 --iterations 50 --repeat 3 --csr off --tolerances off)
  for round in 1 2; do
    bench_elliptic s14b_ell_new_$round STARPU_NCPU=0 -- "${e[@]}"
    command -v taskdycore_base >/dev/null && TDC_EXE=taskdycore_base bench_elliptic s14b_ell_base_$round STARPU_NCPU=0 -- "${e[@]}"
  done
  if command -v ncu >/dev/null; then
    keys='^  [a-z_]+.*\(|Duration|DRAM Throughput|Memory Throughput|L2 Hit|L1/TEX Hit|Achieved Occupancy|Registers Per|Compute \(SM\) Throughput|Executed Ipc A|Stall|One or More Eligible'
    TASKDYCORE_GATED_GRAPHS=off STARPU_NCPU=0 timeout 240 ncu --target-processes all --kernel-name regex:'line_step_kernel|line_direction_kernel' \
      --launch-skip 10 --launch-count 2 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis \
      taskdycore bench elliptic --grid 256x256x128 --iterations 10 --repeat 1 --csr off --tolerances off > "$res/s14b_ncu.txt" 2>&1
    echo "ncu exit $?"; grep -E "$keys" "$res/s14b_ncu.txt" | head -60
  fi
fi
if want session14d; then
  # Session 14, last form of pcg_line against the session-13 build (bin/taskdycore_base), cuSPARSE in the
  # first round, and traces of a thin-shell solve (55 iterations to 1e-5) for the task times.
  e=(--grid 256x256x128 --iterations 50 --repeat 3 --tolerances off)
  for round in 1 2; do
    if [ $round = 1 ]; then bench_elliptic s14d_ell_new_$round STARPU_NCPU=0 -- "${e[@]}"
    else bench_elliptic s14d_ell_new_$round STARPU_NCPU=0 -- "${e[@]}" --csr off; fi
    command -v taskdycore_base >/dev/null && TDC_EXE=taskdycore_base bench_elliptic s14d_ell_base_$round STARPU_NCPU=0 -- "${e[@]}" --csr off
  done
  run s14d_ts_trace STARPU_NCPU=0 -- cases/thin_shell_elliptic.toml --set grid.nx=256 --set grid.ny=256 --set grid.nz=128 \
    --set output.fields=false --set shell.rhs=random --set solver.tol_rel=1e-5 --trace "$res/s14d_ts_trace"
  command -v taskdycore_base >/dev/null && TDC_EXE=taskdycore_base run s14d_ts_trace_base STARPU_NCPU=0 -- cases/thin_shell_elliptic.toml --set grid.nx=256 --set grid.ny=256 --set grid.nz=128 \
    --set output.fields=false --set shell.rhs=random --set solver.tol_rel=1e-5 --trace "$res/s14d_ts_trace_base"
  if command -v ncu >/dev/null; then
    keys='^  [a-z_]+.*\(|Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Executed Ipc A'
    TASKDYCORE_GATED_GRAPHS=off STARPU_NCPU=0 timeout 240 ncu --target-processes all \
      --kernel-name regex:'line_step_kernel|line_update_kernel|line_direction_dot_kernel|finish_groups' \
      --launch-skip 40 --launch-count 8 --section SpeedOfLight --section Occupancy --section LaunchStats \
      taskdycore bench elliptic --grid 256x256x128 --iterations 10 --repeat 1 --csr off --tolerances off > "$res/s14d_ncu.txt" 2>&1
    echo "ncu exit $?"; grep -E "$keys" "$res/s14d_ncu.txt" | sed 's/(TileLayout.*//' | head -50
  fi
fi
if want session14e; then
  # Session 14 experiment: the step kernel's forward batch (levels loaded ahead), 4, 8, 16 (a run-time
  # switch TASKDYCORE_LINE_BATCH in that build only; the code keeps 4).
  e=(--grid 256x256x128 --iterations 50 --repeat 3 --csr off --tolerances off)
  for round in 1 2; do
    for b in 4 8 16; do bench_elliptic s14e_ell_b${b}_$round STARPU_NCPU=0 TASKDYCORE_LINE_BATCH=$b -- "${e[@]}"; done
  done
  if command -v ncu >/dev/null; then
    TASKDYCORE_GATED_GRAPHS=off STARPU_NCPU=0 timeout 240 ncu --target-processes all \
      --kernel-name regex:'line_direction_dot_kernel' --launch-skip 10 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats \
      taskdycore bench elliptic --grid 256x256x128 --iterations 10 --repeat 1 --csr off --tolerances off > "$res/s14e_ncu.txt" 2>&1
    echo "ncu exit $?"; grep -E 'Duration|DRAM Throughput|Achieved Occupancy|Registers Per' "$res/s14e_ncu.txt" | head
  fi
fi
if want session14f; then
  # Session 14: why 2x2 tiles on the one GPU got slower: traces of a thin-shell solve, this build and
  # the session-13 build.
  for exe in taskdycore taskdycore_base; do
    command -v $exe >/dev/null || continue
    TDC_EXE=$exe run s14f_ts_2x2_${exe} STARPU_NCPU=0 -- cases/thin_shell_elliptic.toml --set grid.nx=256 --set grid.ny=256 --set grid.nz=128 \
      --set output.fields=false --set shell.rhs=random --set solver.tol_rel=1e-5 --set tiles.x=2 --set tiles.y=2 --trace "$res/s14f_ts_2x2_${exe}_trace"
  done
fi
if want session14g; then
  # Session 14: the step kernel with w stored for small tiles (fewer column blocks than SMs; commit
  # cf6a934, reverted in the next: 2x2 0.988-1.018 ms against the session-13 build's
  # 0.861-0.891), 1x1 and 2x2 tiles against the session-13 build, alternating.
  e=(--grid 256x256x128 --iterations 50 --repeat 3 --csr off --tolerances off)
  for round in 1 2; do
    for t in 1x1 2x2; do
      bench_elliptic s14g_ell_new_${t}_$round STARPU_NCPU=0 -- "${e[@]}" --tiles $t
      command -v taskdycore_base >/dev/null && TDC_EXE=taskdycore_base bench_elliptic s14g_ell_base_${t}_$round STARPU_NCPU=0 -- "${e[@]}" --tiles $t
    done
  done
fi
if want session14h && command -v ncu >/dev/null; then
  # Session 14: the 2x2-tile step kernel under ncu, this build and the session-13 build's precon kernel.
  keys='^  [a-z_]+.*\(|Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Executed Ipc A|One or More Eligible|L1/TEX Hit|L2 Hit|Block Limit Reg|Waves'
  secs=(--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section SchedulerStats)
  STARPU_NCPU=0 timeout 200 ncu --target-processes all --kernel-name regex:'line_step_kernel' --launch-skip 40 --launch-count 2 "${secs[@]}" \
    taskdycore bench elliptic --grid 256x256x128 --tiles 2x2 --iterations 10 --repeat 1 --csr off --tolerances off > "$res/s14h_ncu.txt" 2>&1
  echo "ncu exit $?"; grep -E "$keys" "$res/s14h_ncu.txt" | sed 's/(TileLayout.*//' | head -30
  command -v taskdycore_base >/dev/null && STARPU_NCPU=0 timeout 200 ncu --target-processes all --kernel-name regex:'fused_precon_kernel' --launch-skip 40 --launch-count 2 "${secs[@]}" \
    taskdycore_base bench elliptic --grid 256x256x128 --tiles 2x2 --iterations 10 --repeat 1 --csr off --tolerances off > "$res/s14h_ncu_base.txt" 2>&1
  echo "ncu base exit $?"; grep -E "$keys" "$res/s14h_ncu_base.txt" | sed 's/(TileLayout.*//' | head -30
fi
if want session14i; then
  # Session 14: pcg_line's dot kernel reading p' through PeriodicAt/ArrayAt against the per-cell
  # neighbour offsets it had (that build carried as bin/taskdycore_base), alternating; 1x1 and 2x2.
  e=(--grid 256x256x128 --iterations 50 --repeat 3 --csr off --tolerances off)
  for round in 1 2 3; do
    for t in 1x1 2x2; do
      bench_elliptic s14i_ell_new_${t}_$round STARPU_NCPU=0 -- "${e[@]}" --tiles $t
      command -v taskdycore_base >/dev/null && TDC_EXE=taskdycore_base bench_elliptic s14i_ell_offsets_${t}_$round STARPU_NCPU=0 -- "${e[@]}" --tiles $t
    done
  done
fi
if want session15; then
  # Session 15: pcg_line's direction step as one 2.5D kernel (u += alpha p, p', A p' and <p', A p'> in
  # one pass over u, p and z) against the session-14 build (bin/taskdycore_base).
  pcg_line_ab s15 3
fi
if want session15b; then
  # Session 15: variants of the 2.5D direction kernel (levels per chunk, levels loaded ahead), carried as
  # bin/taskdycore_<variant>, against the session-14 build, alternating; ncu of each one's direction kernel.
  elliptic_rounds s15b 2 1x1 main kc16 p2 kc64 kc16p2 base
  elliptic_rounds s15b 1 2x2 main kc16 base
  for v in main kc16 p2 kc64 kc16p2; do ncu_line s15b_ncu_$v taskdycore_$v 'line_direction_kernel' 3 1; done
  ncu_line s15b_ncu_base taskdycore_base 'line_update_kernel|line_direction_dot_kernel' 6 2
fi
if want session15c; then
  # Session 15: the 2.5D direction kernel with ring loads spread over the warps and the level's
  # coefficients loaded before the barrier (main), against 3 levels loaded ahead (a3), at most 48
  # registers (mb5), the coefficients loaded after the barrier (late), the first form with 2 levels
  # ahead (p2) and the session-14 build (base), alternating; elliptic tests; ncu with stall reasons.
  elliptic_tests s15c
  elliptic_rounds s15c 2 1x1 main a3 mb5 late p2 base
  bench_elliptic s15c_main_csr STARPU_NCPU=0 -- --grid 256x256x128 --iterations 50 --repeat 3
  elliptic_rounds s15c 1 2x2 main base
  for v in main a3 mb5 late; do ncu_line s15c_ncu_$v taskdycore_$v 'line_direction_kernel|line_step_kernel' 6 2; done
fi
if want session15d; then
  # Session 15: pcg_line's step kernel with its levels copied ahead into shared memory (cp.async) against
  # the build before it (bin/taskdycore_base, commit daab2d5).
  pcg_line_ab s15d 3
fi
if want session15e; then
  # Session 15: the direction kernel with its levels copied ahead into shared memory (cp.async; 4 stages:
  # main, 6: s6) and the step kernel with 6 forward stages (step6), against the build before them
  # (bin/taskdycore_base, commit 7a825d2), alternating; elliptic tests; thin-shell bitwise; ncu.
  elliptic_tests s15e
  elliptic_rounds s15e 2 1x1 main s6 step6 base
  elliptic_rounds s15e 1 2x2 main base
  thin_shell_bitwise s15e
  for v in main step6; do
    ncu_line s15e_ncu_$v taskdycore_$v 'line_direction_kernel|line_step_kernel|finish_groups|scalars_kernel' 12 6
  done
fi
if want session15f; then
  # Session 15: pcg_line's sums finished and the scalars folded in one launch per half-iteration, against
  # the build before (bin/taskdycore_base, commit 7a825d2).
  pcg_line_ab s15f 3
fi
if want session15g; then
  # Session 15: the direction kernel's per-level barrier split into arrive and wait (cuda::barrier; the
  # level s + 1 below applied in between) against the build before (bin/taskdycore_base, commit ef3ce7f),
  # alternating; the elliptic tests; ncu of the direction kernel.
  elliptic_tests s15g
  elliptic_rounds s15g 3 1x1 new base
  elliptic_rounds s15g 1 2x2 new base
  for v in taskdycore taskdycore_base; do ncu_line s15g_ncu_$v $v 'line_direction_kernel' 3 1; done
fi
if want session15h; then
  # Session 15: A p formed from p's stencil in the step kernel (2D blocks of columns, p planes copied by
  # cp.async, a barrier a batch of levels) and no longer stored by the direction step (10 field passes),
  # against the build before (bin/taskdycore_base, commit ef3ce7f). That code was not kept: it is
  # described in docs/performance.md (Session 15).
  pcg_line_ab s15h 3
fi
if want session15i; then
  # Session 15: session15h's step kernel with its shared-memory addressing hoisted out of the level loop,
  # against commit ef3ce7f (bin/taskdycore_base), alternating; the elliptic tests; ncu of the step.
  elliptic_tests s15i
  elliptic_rounds s15i 2 "1x1 2x2" new base
  ncu_line s15i_ncu taskdycore 'line_step_kernel' 3 1
fi
if want session15j; then
  # Session 15, final code: fused PCG and cuSPARSE CSR PCG in the same run, three rounds, alternating with
  # the session-14 build (bin/taskdycore_base, commit 6b60bd0).
  e=(--grid 256x256x128 --iterations 50 --repeat 3)
  for round in 1 2 3; do
    bench_elliptic s15j_new_$round STARPU_NCPU=0 -- "${e[@]}" --tolerances off
    command -v taskdycore_base >/dev/null && TDC_EXE=taskdycore_base bench_elliptic s15j_base_$round STARPU_NCPU=0 -- "${e[@]}" --tolerances off
  done
fi
if want session16; then
  # Session 16: the host checks the solver state one batch behind the submission (graph/elliptic_solver.cpp
  # solve()), against the session-15 build (bin/taskdycore_base, commit 09cab99): elliptic tests, three
  # alternating rounds with cuSPARSE in the same run, and the thin-shell case bitwise.
  elliptic_tests s16
  new_vs_rounds s16 base
  thin_shell_bitwise s16
fi
if want session16b; then
  # Session 16: a single tile's batch of iterations as one gated CUDA graph, the sums finished by each
  # kernel's last block (new when measured; slower, reverted), against the batch graph alone
  # (bin/taskdycore_graph), the state checked one batch behind (bin/taskdycore_pipe, commit 5bb3b71) and the session-15 build (bin/taskdycore_base,
  # 09cab99): the elliptic tests, three alternating rounds with cuSPARSE in each new run, the
  # thin-shell case bitwise and ncu of the two kernels.
  elliptic_tests s16b
  new_vs_rounds s16b graph pipe base
  thin_shell_bitwise s16b
  ncu_line s16b_ncu taskdycore 'line_direction_kernel|line_step_kernel' 6 2
fi
if want session16c; then
  # Session 16: the direction step's u update deferred to every second iteration (bin/taskdycore_lazy,
  # commit 41a30ea) and, on top, the step's max |r| per group instead of a memset and atomics (new),
  # against the batch graph alone (bin/taskdycore_graph, commit df738bc) and the session-15 build
  # (bin/taskdycore_base, 09cab99): the elliptic tests, three alternating rounds (cuSPARSE in each new
  # run), 2x2 tiles once, the thin-shell case bitwise and ncu of the two kernels.
  elliptic_tests s16c
  new_vs_rounds s16c lazy graph base
  elliptic_rounds s16c 1 "2x2" new base
  thin_shell_bitwise s16c
  ncu_line s16c_ncu taskdycore 'line_direction_kernel|line_step_kernel' 6 2
fi
if want session16d; then
  # Session 16: the batch's kernels launched as programmatic dependents (each may be scheduled while the
  # one before it ends; new), against the same code without (bin/taskdycore_s16, commit 557adcd), with
  # direction chunks of 64 levels (bin/taskdycore_l64; with programmatic launches: bin/taskdycore_pdl64)
  # and the session-15 build (bin/taskdycore_base, 09cab99): the elliptic tests, three alternating
  # rounds (cuSPARSE in each new run), the thin-shell case bitwise and ncu of the batch's kernels.
  elliptic_tests s16d
  new_vs_rounds s16d s16 l64 pdl64 base
  thin_shell_bitwise s16d
  ncu_line s16d_ncu taskdycore 'line_direction_kernel|line_step_kernel|finish_and_fold' 12 6
fi
if want session16e; then
  # Session 16: what a host check costs: fused PCG with the state checked every 10 (the default), 25 and
  # 50 iterations (one StarPU task per batch on a single tile), three alternating rounds.
  e=(--grid 256x256x128 --iterations 50 --repeat 3 --tolerances off --csr off)
  for round in 1 2 3; do
    for c in 10 25 50; do bench_elliptic s16e_c${c}_$round STARPU_NCPU=0 -- "${e[@]}" --check-every $c; done
  done
fi
if want session16f; then
  # Session 16: a single tile's iterations looping on the device, one task per solve (new), against the
  # batches of 10 with programmatic launches (bin/taskdycore_pdl, commit 628a460) and the session-15
  # build (bin/taskdycore_base, 09cab99): the elliptic tests, three alternating rounds (cuSPARSE in each
  # new run), iterations to 1e-5 and 1e-10, and the thin-shell case bitwise.
  elliptic_tests s16f
  new_vs_rounds s16f pdl base
  bench_elliptic s16f_new_tol STARPU_NCPU=0 -- --grid 256x256x128 --iterations 50 --repeat 1 --csr off
  python3 -c "import json; j=json.load(open('$res/s16f_new_tol.json')); print({k: v for k, v in j.items() if k.startswith(('iterations_to', 'seconds_to'))})"
  thin_shell_bitwise s16f
fi
if want session16g; then
  # Session 16: the residual's lowest levels kept in L2 across iterations (an access policy window on the
  # step kernel; new when measured: 0.55 ms, and cuSPARSE in the same process 2.08 ms, so reverted),
  # against half of r and half of A p kept (bin/taskdycore_l2rap), the device loop
  # without a window (bin/taskdycore_loop, commit fbef141) and the session-15 build (bin/taskdycore_base,
  # 09cab99): the elliptic tests, three alternating rounds (cuSPARSE in each new run), the thin-shell case
  # bitwise and ncu of the step kernel.
  elliptic_tests s16g
  new_vs_rounds s16g l2rap loop base
  thin_shell_bitwise s16g
  ncu_line s16g_ncu taskdycore 'line_step_kernel|line_direction_kernel' 6 4
fi
if want session16h; then
  # Session 16, final code (a single tile's iterations looping on the device): the whole test suite, three
  # rounds of fused PCG with cuSPARSE in the same run alternating with the session-15 build
  # (bin/taskdycore_base, 09cab99), 2x2 tiles and 512x512x128 once, iterations to 1e-5 and 1e-10, the
  # thin-shell case bitwise, and ncu of one iteration pair's kernels (the tests: section session16h_tests).
  new_vs_rounds s16h base
  elliptic_rounds s16h 1 "2x2" new base
  bench_elliptic s16h_new_512 STARPU_NCPU=0 -- --grid 512x512x128 --iterations 30 --repeat 3 --csr off --tolerances off
  bench_elliptic s16h_new_tol STARPU_NCPU=0 -- --grid 256x256x128 --iterations 50 --repeat 1 --csr off
  ncu_line s16h_ncu taskdycore 'line_step_kernel|line_direction_kernel|finish_and_fold' 12 8
fi
if want session16h_tests; then
  tests
  thin_shell_bitwise s16h
fi
if want session16i; then
  # Session 16: one finishing kernel per iteration in the device loop (new when measured: neutral,
  # 0.302-0.310 against 0.302-0.307 ms, reverted), against the device loop with
  # two (bin/taskdycore_loop, commit fbef141) and the session-15 build (bin/taskdycore_base, 09cab99): the
  # elliptic tests, three alternating rounds (cuSPARSE in each new run) and the thin-shell case bitwise.
  elliptic_tests s16i
  new_vs_rounds s16i loop base
  thin_shell_bitwise s16i
fi
if want session16j; then
  # Session 16, final code: five rounds of fused PCG with cuSPARSE CSR PCG in the same run.
  for round in 1 2 3 4 5; do
    bench_elliptic s16j_new_$round STARPU_NCPU=0 -- --grid 256x256x128 --iterations 50 --repeat 3 --tolerances off
  done
fi
if want session16k; then
  # Session 16, last commits (the graph builder shared by the gate and the device loop; the breakdown
  # path; the loop's round count set per launch): the whole suite, the thin-shell case bitwise and two
  # rounds of fused PCG with cuSPARSE in the same run.
  tests
  thin_shell_bitwise s16k
  for round in 1 2; do
    bench_elliptic s16k_new_$round STARPU_NCPU=0 -- --grid 256x256x128 --iterations 50 --repeat 3 --tolerances off
  done
fi
# The static SASS mix of the MPDATA stage kernels of the build $1 (one line per kernel: total, then
# the commonest opcodes); $2 names the output.
sass_stage_mix() {
  cuobjdump -sass "$(command -v "$1")" > /tmp/sass_$2.txt 2>/dev/null
  awk '/Function : /{name=$3} /^\s+\/\*[0-9a-f]+\*\/\s+[A-Z@]/{op=$2; if (op ~ /^@/) op=$3; print name, op}' /tmp/sass_$2.txt |
    grep -E 'upwind_kernel|antidiffusive_kernel|fct_beta_kernel' | sed -E 's/_ZN3tdc6mpdata[0-9A-Za-z_]*cu_[0-9a-f]{8}//' |
    awk '{op=$2; sub(/\..*/, "", op); n[$1]++; c[$1" "op]++} END {for (k in n) {line=k" "n[k]":"; for (x in c) {split(x, a, " "); if (a[1]==k && c[x] >= 8) line=line" "a[2]"="c[x]} print line}}' |
    sort > "$res/$2_sass_mix.txt"
  awk '/Function : .*20antidiffusive_kernelINS0_12DensityArrayELb0/{f=1} f&&/Function : /&&!/20antidiffusive_kernelINS0_12DensityArrayELb0/{f=0} f' \
    /tmp/sass_$2.txt > "$res/$2_sass_antidiffusive_G.txt"
  echo "$2: SASS of the stage kernels (instructions: commonest opcodes)"; cut -c1-300 "$res/$2_sass_mix.txt"
}
# The kernel tests (CPU/CUDA agreement included) with their failures shown; $1 prefixes the log.
kernel_tests() {
  timeout 240 test_kernels > "$res/$1_test_kernels.txt" 2>&1
  echo "kernel tests exit $?: $(grep -E '^\[  (PASSED|FAILED)' "$res/$1_test_kernels.txt" | tr '\n' ' ')"
  grep -E 'FAILED|Failure|gave|differ' "$res/$1_test_kernels.txt" | head -20
}
# The MPDATA benchmark with the bench arguments after $1 on 16 CPU workers and on the GPU, with G
# ($1_cpu_G, $1_gpu_G) and at G = 1 in the infinite gauge ($1_cpu_iga, $1_gpu_iga): their
# field checksums must be equal.
cpu_gpu_runs() {
  local pre=$1; shift
  for v in G iga; do
    local extra=(); [ $v = iga ] && extra=(--iga on --density unit)
    bench ${pre}_cpu_$v STARPU_NCUDA=0 STARPU_NCPU=16 -- "$@" "${extra[@]}"
    bench ${pre}_gpu_$v STARPU_NCPU=0 -- "$@" "${extra[@]}"
  done
}
# Round $2 of the 256^3 benchmark (1x1 tile, overlap off) in each form of $3 (G: with G, plain gauge;
# iga: G = 1, infinite gauge) for each build after it ("new" is bin/taskdycore, v bin/taskdycore_v),
# alternating: results $1_v_form_$2.
mpdata_round() {
  local pre=$1 round=$2 forms=($3); shift 3
  for v in "$@"; do
    local exe=taskdycore; [ $v = new ] || exe=taskdycore_$v
    for f in "${forms[@]}"; do
      local extra=(); [ $f = iga ] && extra=(--iga on --density unit)
      TDC_EXE=$exe bench ${pre}_${v}_${f}_$round STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off "${extra[@]}"
    done
  done
}
# ncu of the MPDATA stage kernels matching $2 at step 61 of the 256^3 benchmark (G, plain gauge),
# with $3 of them launched a step, run by ${TDC_EXE:-taskdycore}; $1 names the report.
ncu_stage_kernels() {
  command -v ncu >/dev/null || return 0
  local keys='^  [a-z_]+.*\(|Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Compute \(SM\) Throughput|Executed Instructions  '
  STARPU_NCPU=0 timeout 200 ncu --target-processes all --kernel-name regex:"$2" \
    --launch-skip $((60 * $3)) --launch-count "$3" --section SpeedOfLight --section Occupancy --section LaunchStats --section InstructionStats \
    "${TDC_EXE:-taskdycore}" bench mpdata --grid 256x256x256 --steps 10 --repeat 1 --warmup 60 --tiles 1x1 --overlap off --direct off > "$res/$1.txt" 2>&1
  echo "ncu $1 exit $?"
  grep -E "$keys" "$res/$1.txt" | grep -vE '^\s+(Block|Grid|Shared|Threads|Waves|Uses|Dynamic|Static|Driver|Function)' |
    sed -E 's/\(Cells.*//; s/\(FixupList.*//; s/void .*unnamed>::(cell_kernel|fixup_kernel)<(ExactDivide, )?(unnamed>::)?/  \1 /' | head -50
}
if want session17a; then
  # Session 17: MPDATA with the branch-free division (bin/taskdycore) against the same code with a / b
  # (bin/taskdycore_base). Bits: the divide test, the CPU/CUDA agreement tests, and the field checksums
  # of the GPU runs against each other and against 16 CPU workers. Times: alternating rounds.
  kernel_tests s17a
  sass_stage_mix taskdycore s17a_new
  sass_stage_mix taskdycore_base s17a_base
  short=(--grid 256x256x256 --steps 2 --repeat 1 --warmup 1 --tiles 2x2 --overlap off --direct off)
  bench s17a_cpu_G STARPU_NCUDA=0 STARPU_NCPU=16 -- "${short[@]}"
  bench s17a_cpu_iga STARPU_NCUDA=0 STARPU_NCPU=16 -- "${short[@]}" --iga on --density unit
  bench s17a_gpu_G STARPU_NCPU=0 -- "${short[@]}"
  bench s17a_gpu_iga STARPU_NCPU=0 -- "${short[@]}" --iga on --density unit
  TDC_EXE=taskdycore_base bench s17a_base_G STARPU_NCPU=0 -- "${short[@]}"
  python3 - "$res" <<'PY'
import json, sys
r = sys.argv[1]
c = lambda n: json.load(open(f"{r}/{n}.json"))["field_checksum"]
for g in ("G", "iga"):
    print(f"checksum {g}: cpu {c('s17a_cpu_'+g)} gpu {c('s17a_gpu_'+g)} same: {c('s17a_cpu_'+g) == c('s17a_gpu_'+g)}")
print("base G gpu", c("s17a_base_G"), "same as new:", c("s17a_base_G") == c("s17a_gpu_G"))
PY
  for round in 1 2 3; do mpdata_round s17a $round "G iga" new base; done
  if command -v ncu >/dev/null; then
    keys='^  [a-z_]+.*\(|Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Compute \(SM\) Throughput|Executed Ipc A|Issue Slots Busy|Executed Instructions  |No Eligible|Stall|FP64|Pipe'
    for v in new base; do
      exe=taskdycore; [ $v = new ] || exe=taskdycore_$v
      STARPU_NCPU=0 timeout 200 ncu --target-processes all --kernel-name regex:'upwind|antidiffusive|fct_beta' \
        --launch-skip 20 --launch-count 4 --section SpeedOfLight --section Occupancy --section LaunchStats \
        --section ComputeWorkloadAnalysis --section InstructionStats --section WarpStateStats --section SchedulerStats \
        $exe bench mpdata --grid 256x256x256 --steps 3 --repeat 1 --warmup 1 --tiles 1x1 --overlap off > "$res/s17a_ncu_$v.txt" 2>&1
      echo "ncu $v exit $?"; grep -E "$keys" "$res/s17a_ncu_$v.txt" | grep -vE '^\s+(Block|Grid|Shared|Threads|Waves|Uses|Dynamic|Static|Driver|Function|Registers Per Thread.*register)' | head -70
    done
  fi
fi
if want session17b; then
  # Session 17: the branch-free division in the antidiffusive and limiter kernels, cells off its fast
  # path recomputed by the fix-up kernel (bin/taskdycore), against the same code dividing with a / b
  # (bin/taskdycore_base): tests, bits (GPU against 16 CPU workers and against the base), times, ncu.
  kernel_tests s17b
  short=(--grid 256x256x256 --steps 2 --repeat 1 --warmup 1 --tiles 2x2 --overlap off --direct off)
  for v in G iga; do
    extra=(); [ $v = iga ] && extra=(--iga on --density unit)
    bench s17b_cpu_$v STARPU_NCUDA=0 STARPU_NCPU=16 -- "${short[@]}" "${extra[@]}"
    bench s17b_gpu_$v STARPU_NCPU=0 -- "${short[@]}" "${extra[@]}"
    TDC_EXE=taskdycore_base bench s17b_base_$v STARPU_NCPU=0 -- "${short[@]}" "${extra[@]}"
  done
  python3 - "$res" <<'PY'
import json, sys
r = sys.argv[1]
c = lambda n: json.load(open(f"{r}/{n}.json"))["field_checksum"]
for g in ("G", "iga"):
    a, b, base = c("s17b_cpu_" + g), c("s17b_gpu_" + g), c("s17b_base_" + g)
    print(f"checksum {g}: cpu {a} gpu {b} base gpu {base}; all equal: {a == b == base}")
PY
  for round in 1 2 3; do mpdata_round s17b $round "G iga" new base; done
  bench s17b_new_G_2x2 STARPU_NCPU=0 -- "${g[@]}" --tiles 2x2 --overlap on
  TDC_EXE=taskdycore_base bench s17b_base_G_2x2 STARPU_NCPU=0 -- "${g[@]}" --tiles 2x2 --overlap on
  if command -v ncu >/dev/null; then
    keys='^  [a-z_]+.*\(|Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Compute \(SM\) Throughput|Executed Ipc A|Executed Instructions  |No Eligible'
    STARPU_NCPU=0 timeout 200 ncu --target-processes all --kernel-name regex:'branch_free|fixup|upwind' \
      --launch-skip 30 --launch-count 6 --section SpeedOfLight --section Occupancy --section LaunchStats \
      --section InstructionStats --section SchedulerStats \
      taskdycore bench mpdata --grid 256x256x256 --steps 3 --repeat 1 --warmup 1 --tiles 1x1 --overlap off > "$res/s17b_ncu.txt" 2>&1
    echo "ncu exit $?"; grep -E "$keys" "$res/s17b_ncu.txt" | grep -vE '^\s+(Block|Grid|Shared|Threads|Waves|Uses|Dynamic|Static|Driver|Function)' | sed -E 's/\(Cells.*//' | head -70
  fi
fi
if want session17c; then
  # Session 17: the branch-free division with tiny dividends scaled onto its fast path and a fix-up
  # list of 2^20 cells, under three register budgets for its kernels: bin/taskdycore (at most 72
  # registers, __launch_bounds__(128, 7)), _lb6 (80), _lb0 (none); against the same code dividing
  # with a / b (_base). Bits: GPU against 16 CPU workers over 60 steps at 128^3, and every variant's
  # 256^3 bench field against the base's (105 steps). Times: alternating rounds. ncu past step 60.
  kernel_tests s17c
  mid=(--grid 128x128x128 --steps 20 --repeat 2 --warmup 20 --tiles 2x2 --overlap off --direct off)
  cpu_gpu_runs s17c "${mid[@]}"
  for round in 1 2; do mpdata_round s17c $round "G iga" new lb6 lb0 base; done
  python3 - "$res" <<'PY'
import json, sys
r = sys.argv[1]
c = lambda n: json.load(open(f"{r}/{n}.json"))["field_checksum"]
for g in ("G", "iga"):
    print(f"128^3, 60 steps, {g}: cpu {c('s17c_cpu_'+g)} gpu {c('s17c_gpu_'+g)} equal: {c('s17c_cpu_'+g) == c('s17c_gpu_'+g)}")
    base = c(f"s17c_base_{g}_1")
    print(f"256^3, 105 steps, {g}: base {base}; equal:", {v: c(f"s17c_{v}_{g}_{k}") == base for v in ("new", "lb6", "lb0", "base") for k in (1, 2)})
PY
  ncu_stage_kernels s17c_ncu 'branch_free|fixup' 4
fi
if want session17d; then
  # Session 17: tiny dividends scaled onto the fast path (bin/taskdycore = _tiny) or left to the
  # fix-up kernel (_notiny), antidiffusive kernel at most 72 registers and limiter 48; _lb7 is the
  # session17c build (limiter at 72 too); _base divides with a / b. Alternating rounds, bits against
  # the base, and ncu of the fix-up past step 60 for both.
  mpdata_round s17d 1 "G iga" new notiny lb7 base
  for round in 2 3; do mpdata_round s17d $round G new notiny lb7 base; done
  python3 - "$res" <<'PY'
import json, sys
r = sys.argv[1]
c = lambda n: json.load(open(f"{r}/{n}.json"))["field_checksum"]
base = c("s17d_base_G_1")
print("256^3 G, 105 steps: equal to base:", {f"{v}_{k}": c(f"s17d_{v}_G_{k}") == base for v in ("new", "notiny", "lb7") for k in (1, 2, 3)})
base = c("s17d_base_iga_1")
print("256^3 iga: equal to base:", {v: c(f"s17d_{v}_iga_1") == base for v in ("new", "notiny", "lb7")})
PY
  for v in new notiny; do
    exe=taskdycore; [ $v = new ] || exe=taskdycore_$v
    TDC_EXE=$exe ncu_stage_kernels s17d_ncu_$v 'branch_free|fixup' 4
  done
fi
if want session17e; then
  # Session 17, final code: the branch-free division in the antidiffusive and limiter kernels
  # (bin/taskdycore) against the session-16 kernels dividing with a / b (bin/taskdycore_base), and
  # a variant whose upwind passes divide branch-free too (bin/taskdycore_bfup).
  kernel_tests s17e
  mid=(--grid 128x128x128 --steps 20 --repeat 2 --warmup 20 --tiles 2x2 --overlap off --direct off)
  cpu_gpu_runs s17e "${mid[@]}"
  for round in 1 2 3; do  # bfup: the upwind passes dividing branch-free too (with G only)
    mpdata_round s17e $round "G iga" new; mpdata_round s17e $round G bfup; mpdata_round s17e $round "G iga" base
  done
  for v in new base; do
    exe=taskdycore; [ $v = new ] || exe=taskdycore_$v
    TDC_EXE=$exe bench s17e_${v}_fctoff STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off --fct off
    TDC_EXE=$exe bench s17e_${v}_2x2on STARPU_NCPU=0 -- "${g[@]}" --tiles 2x2 --overlap on
    TDC_EXE=$exe bench s17e_${v}_512 STARPU_NCPU=0 -- --grid 512x512x128 --steps 20 --repeat 5 --warmup 5 --tiles 1x1 --overlap off
  done
  bench s17e_hybrid_1x1 STARPU_NCPU=15 -- "${g[@]}" --tiles 1x1 --overlap off --direct off --warmup 40
  python3 - "$res" <<'PY'
import json, sys
r = sys.argv[1]
j = lambda n: json.load(open(f"{r}/{n}.json"))
c = lambda n: j(n)["field_checksum"]
for g in ("G", "iga"):
    print(f"128^3, 60 steps, {g}: cpu {c('s17e_cpu_'+g)} gpu {c('s17e_gpu_'+g)} equal: {c('s17e_cpu_'+g) == c('s17e_gpu_'+g)}")
    print(f"256^3, 105 steps, {g}: equal to base:", all(c(f"s17e_new_{g}_{k}") == c(f"s17e_base_{g}_{k}") for k in (1, 2, 3)))
print("bfup G equal to base:", all(c(f"s17e_bfup_G_{k}") == c(f"s17e_base_G_{k}") for k in (1, 2, 3)),
      "ms/step:", [round(j(f"s17e_bfup_G_{k}")["ms_per_step"], 3) for k in (1, 2, 3)])
for n in ("fctoff", "2x2on", "512"):
    print(n, "equal to base:", c(f"s17e_new_{n}") == c(f"s17e_base_{n}"))
print("| case | new ms/step (graph) | base ms/step | new/base | new Gcell/s | new graph/direct |")
for n in ["G_1", "G_2", "G_3", "iga_1", "iga_2", "iga_3", "fctoff", "2x2on", "512"]:
    a, b = j(f"s17e_new_{n}"), j(f"s17e_base_{n}")
    print(f"| {n} | {a['ms_per_step']:.3f} | {b['ms_per_step']:.3f} | {a['ms_per_step'] / b['ms_per_step']:.3f} | {a['gcells_per_s']:.2f} | {a.get('graph_over_direct', 0):.3f} |")
h = j("s17e_hybrid_1x1")
print("hybrid 15 CPU + GPU, 1x1:", round(h["ms_per_step"], 3), "ms/step, same field as GPU alone:", h["field_checksum"] == c("s17e_new_G_1"))
PY
  mg_runs
  for v in new base; do
    exe=taskdycore; [ $v = new ] || exe=taskdycore_$v
    TDC_EXE=$exe run s17e_tg256_$v STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}"
  done
  same_bits s17e_tg256_new s17e_tg256_base
  ncu_stage_kernels s17e_ncu 'upwind|branch_free|fixup' 6  # (matched nothing: the kernels were renamed cell_kernel)
fi
if want session17f; then
  # Session 17: the dynamical core's form (G = 1, infinite gauge) was 2-3 % slower with the final code
  # of session17e (bin/taskdycore_final). Variants: _v2 (its antidiffusive kernel, which divides
  # nothing there, without a register cap) and bin/taskdycore (= _v3: _v2 with the limiter dividing
  # with a / b there too), against the base; then TG 256^3, and ncu of the final kernels with G.
  for round in 1 2 3; do mpdata_round s17f $round iga new v2 final base; done
  mpdata_round s17f 1 G new base
  python3 - "$res" <<'PY'
import json, sys
r = sys.argv[1]
j = lambda n: json.load(open(f"{r}/{n}.json"))
for v in ("new", "v2", "final", "base"):
    print(v, "iga ms/step:", [round(j(f"s17f_{v}_iga_{k}")["ms_per_step"], 3) for k in (1, 2, 3)],
          "same bits as base:", all(j(f"s17f_{v}_iga_{k}")["field_checksum"] == j(f"s17f_base_iga_{k}")["field_checksum"] for k in (1, 2, 3)))
print("G ms/step new", round(j("s17f_new_G_1")["ms_per_step"], 3), "base", round(j("s17f_base_G_1")["ms_per_step"], 3),
      "same bits:", j("s17f_new_G_1")["field_checksum"] == j("s17f_base_G_1")["field_checksum"])
PY
  mg_runs
  for round in 1 2; do
    for v in new base; do
      exe=taskdycore; [ $v = new ] || exe=taskdycore_$v
      TDC_EXE=$exe run s17f_tg256_${v}_$round STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}"
    done
  done
  same_bits s17f_tg256_new_1 s17f_tg256_base_1
  ncu_stage_kernels s17f_ncu 'cell_kernel|fixup' 6
fi
if want session17g; then
  # Session 17: the zero-dividend test on the integer words of a and a * y only (bin/taskdycore), and
  # with it blocks of 16 x 8 (_w16) and 64 x 2 (_w64) threads for the antidiffusive and limiter
  # kernels instead of 32 x 4; against the committed code (_v3) and the session-16 build (_base).
  kernel_tests s17g
  for round in 1 2 3; do mpdata_round s17g $round G new w16 w64 v3 base; done
  mpdata_round s17g 1 iga new w16 w64 v3 base
  python3 - "$res" <<'PY'
import json, sys
r = sys.argv[1]
j = lambda n: json.load(open(f"{r}/{n}.json"))
for v in ("new", "w16", "w64", "v3", "base"):
    print(v, "G ms/step:", [round(j(f"s17g_{v}_G_{k}")["ms_per_step"], 3) for k in (1, 2, 3)], "iga:", round(j(f"s17g_{v}_iga_1")["ms_per_step"], 3),
          "same bits as base:", all(j(f"s17g_{v}_{f}_{k}")["field_checksum"] == j(f"s17g_base_{f}_{k}")["field_checksum"] for f, k in (("G", 1), ("G", 2), ("G", 3), ("iga", 1))))
PY
fi
if want session17h; then
  # Session 17: the branch-free divider's domain test with & and | (its && and || were branches in the
  # PTX, one a division) and the gauge a compile-time constant in the antidiffusive and limiter cells
  # (bin/taskdycore); _B: the & and | alone; _zc: the committed code; _base: session 16.
  kernel_tests s17h
  for round in 1 2 3; do mpdata_round s17h $round G new B zc base; done
  mpdata_round s17h 1 iga new B zc base
  python3 - "$res" <<'PY'
import json, sys
r = sys.argv[1]
j = lambda n: json.load(open(f"{r}/{n}.json"))
for v in ("new", "B", "zc", "base"):
    print(v, "G ms/step:", [round(j(f"s17h_{v}_G_{k}")["ms_per_step"], 3) for k in (1, 2, 3)], "iga:", round(j(f"s17h_{v}_iga_1")["ms_per_step"], 3),
          "same bits as base:", all(j(f"s17h_{v}_{f}_{k}")["field_checksum"] == j(f"s17h_base_{f}_{k}")["field_checksum"] for f, k in (("G", 1), ("G", 2), ("G", 3), ("iga", 1))))
PY
  ncu_stage_kernels s17h_ncu 'cell_kernel|fixup' 6
fi
if want session17i; then
  # Session 17: the antidiffusive formula's three divisions by the face's G sharing one reciprocal
  # (bin/taskdycore, not kept: 1.968-2.004 ms against 1.956-1.972); _A: the commit before
  # (session17h); _base: session 16.
  kernel_tests s17i
  for round in 1 2 3; do mpdata_round s17i $round G new A base; done
  mpdata_round s17i 1 iga new A base
  python3 - "$res" <<'PY'
import json, sys
r = sys.argv[1]
j = lambda n: json.load(open(f"{r}/{n}.json"))
for v in ("new", "A", "base"):
    print(v, "G ms/step:", [round(j(f"s17i_{v}_G_{k}")["ms_per_step"], 3) for k in (1, 2, 3)], "iga:", round(j(f"s17i_{v}_iga_1")["ms_per_step"], 3),
          "same bits as base:", all(j(f"s17i_{v}_{f}_{k}")["field_checksum"] == j(f"s17i_base_{f}_{k}")["field_checksum"] for f, k in (("G", 1), ("G", 2), ("G", 3), ("iga", 1))))
PY
  ncu_stage_kernels s17i_ncu 'cell_kernel.*Antidiffusive' 1
fi
if want session17j; then
  # Session 17: the antidiffusive kernel capped at 64 registers (_lb8: 32 bytes of spills, 50 %
  # occupancy) against 72 (bin/taskdycore, the final code); _base: session 16.
  for round in 1 2 3; do mpdata_round s17j $round G new lb8 base; done
  python3 - "$res" <<'PY'
import json, sys
r = sys.argv[1]
j = lambda n: json.load(open(f"{r}/{n}.json"))
for v in ("new", "lb8", "base"):
    print(v, "G ms/step:", [round(j(f"s17j_{v}_G_{k}")["ms_per_step"], 3) for k in (1, 2, 3)],
          "same bits as base:", all(j(f"s17j_{v}_G_{k}")["field_checksum"] == j(f"s17j_base_G_{k}")["field_checksum"] for k in (1, 2, 3)))
PY
fi
if want session17k; then
  # Session 17, final code: the antidiffusive kernel capped at 64 registers (bin/taskdycore), against
  # 56 (_lb9: 100 bytes of spills) and 72 (_A, session17h) and the session-16 build (_base); the kernel
  # tests; and the GPU against 16 CPU workers over 60 steps at 128^3.
  kernel_tests s17k
  cpu_gpu_runs s17k --grid 128x128x128 --steps 20 --repeat 2 --warmup 20 --tiles 2x2 --overlap off --direct off
  for round in 1 2 3; do mpdata_round s17k $round G new lb9 A base; done
  mpdata_round s17k 1 iga new base
  python3 - "$res" <<'PY'
import json, sys
r = sys.argv[1]
j = lambda n: json.load(open(f"{r}/{n}.json"))
for g in ("G", "iga"):
    a, b = j(f"s17k_cpu_{g}")["field_checksum"], j(f"s17k_gpu_{g}")["field_checksum"]
    print(f"128^3, 60 steps, {g}: cpu {a} gpu {b} equal: {a == b}")
for v in ("new", "lb9", "A", "base"):
    print(v, "G ms/step (graph, direct):", [(round(j(f"s17k_{v}_G_{k}")["ms_per_step"], 3), round(j(f"s17k_{v}_G_{k}")["direct_ms_per_step"], 3)) for k in (1, 2, 3)],
          "same bits as base:", all(j(f"s17k_{v}_G_{k}")["field_checksum"] == j(f"s17k_base_G_{k}")["field_checksum"] for k in (1, 2, 3)))
print("iga new", round(j("s17k_new_iga_1")["ms_per_step"], 3), "base", round(j("s17k_base_iga_1")["ms_per_step"], 3),
      "same bits:", j("s17k_new_iga_1")["field_checksum"] == j("s17k_base_iga_1")["field_checksum"])
n = j("s17k_new_G_1")
print("new G round 1:", round(n["gcells_per_s"], 2), "Gcell/s,", round(100 * n["bandwidth_fraction"], 1), "% of roofline, graph/direct", round(n["graph_over_direct"], 3))
PY
fi
# ncu metrics of the MPDATA stage kernels (all six launches of step 61 at 256^3: duration, DRAM, occupancy,
# registers, warp instructions, FP64 pipe and issue-slot use, warp cycles per instruction), run by
# ${TDC_EXE:-taskdycore} with the bench arguments after $1 (the report's name) and $2 (launches a step:
# 6 with G, 4 at G = 1 in the infinite gauge, which has no fix-ups).
ncu_pipes() {
  command -v ncu >/dev/null || return 0
  local name=$1 per_step=$2; shift 2
  local m=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
  m=$m,launch__registers_per_thread,smsp__inst_executed.sum,sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active
  m=$m,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
  m=$m,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warp_latency_per_inst_issued.ratio
  STARPU_NCPU=0 timeout 240 ncu --target-processes all --kernel-name regex:'cell_kernel|face_kernel|fixup' --launch-skip $((60 * per_step)) --launch-count $per_step \
    --metrics "$m" "${TDC_EXE:-taskdycore}" bench mpdata --grid 256x256x256 --steps 10 --repeat 1 --warmup 60 --tiles 1x1 --overlap off \
    --direct off "$@" > "$res/$name.txt" 2>&1
  echo "ncu $name exit $?"
  awk '/^  [a-z_].*(cell_kernel|face_kernel|fixup_kernel)/{k=$0; sub(/\(Cells.*|\(FixupList.*/, "", k); gsub(/void |tdc::|mpdata::|<unnamed>::|ExactDivide, /, "", k); print "  " k}
       /gpu__time|dram__|warps_active|registers_per|inst_executed.sum|pipe_fp64|issue_active|long_scoreboard|warp_latency/{print "      " $1, $(NF)}' "$res/$name.txt" | head -80
}
# Summary of an A/B of builds: $1 the runs' prefix, $2 the reference build, then the other builds.
# Prints the CPU-vs-GPU checksums ($1_cpu_F / $1_gpu_F, where run), each build's mpdata_round times
# (graph, direct) in each form and whether its fields equal the reference's, and the first round of "new".
rounds_summary() {
  python3 - "$res" "$@" <<'PY'
import json, os, sys
r, pre, ref, *others = sys.argv[1:]
have = lambda n: os.path.exists(f"{r}/{n}.json")
j = lambda n: json.load(open(f"{r}/{n}.json"))
for f in ("G", "iga"):
    if have(f"{pre}_cpu_{f}") and have(f"{pre}_gpu_{f}"):
        a, b = j(f"{pre}_cpu_{f}")["field_checksum"], j(f"{pre}_gpu_{f}")["field_checksum"]
        print(f"{f}: cpu {a} gpu {b} equal: {a == b}")
for f in ("G", "iga"):
    for v in others + [ref]:
        ks = [k for k in (1, 2, 3) if have(f"{pre}_{v}_{f}_{k}")]
        if not ks:
            continue
        times = [(round(j(f"{pre}_{v}_{f}_{k}")["ms_per_step"], 3), round(j(f"{pre}_{v}_{f}_{k}")["direct_ms_per_step"], 3)) for k in ks]
        same = all(j(f"{pre}_{v}_{f}_{k}")["field_checksum"] == j(f"{pre}_{ref}_{f}_{k}")["field_checksum"] for k in ks)
        print(f, v, "ms/step (graph, direct):", times, "same bits as", ref + ":", same)
    if have(f"{pre}_new_{f}_1"):
        n = j(f"{pre}_new_{f}_1")
        print(f"new {f} round 1:", round(n["gcells_per_s"], 2), "Gcell/s,", round(100 * n["bandwidth_fraction"], 1),
              "% of roofline, graph/direct", round(n["graph_over_direct"], 3))
PY
}
if want session18a; then
  # Session 18: the antidiffusive velocities with a cell's three faces by three warps (bin/taskdycore:
  # blocks of 32 x 4 x 3; _faces2: 32 x 2 x 3; _faces5: at most 32 registers) against the session-17
  # build (_base); the kernel tests; the GPU against 16 CPU workers over 60 steps at 128^3; ncu.
  kernel_tests s18a
  cpu_gpu_runs s18a --grid 128x128x128 --steps 20 --repeat 2 --warmup 20 --tiles 2x2 --overlap off --direct off
  for round in 1 2 3; do mpdata_round s18a $round "G iga" new faces2 faces5 base; done
  rounds_summary s18a base new faces2 faces5
fi
if want session18b; then
  # ncu of the stage kernels, this build against the session-17 build, with G and at G = 1.
  ncu_pipes s18a_ncu_new_G 6
  TDC_EXE=taskdycore_base ncu_pipes s18a_ncu_base_G 6
  ncu_pipes s18a_ncu_new_iga 4 --iga on --density unit
  TDC_EXE=taskdycore_base ncu_pipes s18a_ncu_base_iga 4 --iga on --density unit
fi
if want session18c; then
  # Session 18: the stage kernels read through 32-bit cell offsets (CellFrame in every stage; first named
  # CellPlanes) and the upwind passes
  # take the gauge as a constant (bin/taskdycore); _cp: the offsets only; _base: the session-17 build.
  # Kernel tests, the GPU against 16 CPU workers, alternating rounds, TG 256^3, ncu.
  kernel_tests s18c
  cpu_gpu_runs s18c --grid 128x128x128 --steps 20 --repeat 2 --warmup 20 --tiles 2x2 --overlap off --direct off
  for round in 1 2 3; do mpdata_round s18c $round "G iga" new cp base; done
  rounds_summary s18c base new cp
  mg_runs
  variant_rounds s18c_tg256 taskdycore taskdycore_base
  same_bits s18c_tg256_new_1 s18c_tg256_base_1
  ncu_pipes s18c_ncu_new_G 6
  ncu_pipes s18c_ncu_new_iga 4 --iga on --density unit
fi
# Kernel durations at the benchmark's clocks and with warm caches (ncu --clock-control none
# --cache-control none): the six launches of step 61 at 256^3 by ${TDC_EXE:-taskdycore}, bench
# arguments after $2 (launches a step); one line per kernel.
ncu_times() {
  command -v ncu >/dev/null || return 0
  local name=$1 per_step=$2; shift 2
  STARPU_NCPU=0 timeout 240 ncu --target-processes all --clock-control none --cache-control none \
    --kernel-name regex:'cell_kernel|fixup' --launch-skip $((60 * per_step)) --launch-count $per_step --metrics gpu__time_duration.sum \
    "${TDC_EXE:-taskdycore}" bench mpdata --grid 256x256x256 --steps 10 --repeat 1 --warmup 60 --tiles 1x1 --overlap off \
    --direct off "$@" > "$res/$name.txt" 2>&1
  echo "$name: $(awk '/^  [a-z_].*(cell_kernel|fixup_kernel)/{k=$0; sub(/\(Cells.*|\(FixupList.*/, "", k); sub(/.*(cell_kernel|fixup_kernel)<[^A-Z]*/, "", k); sub(/Cell<.*/, "", k)}
       /gpu__time_duration/{printf "%s %s%s; ", k, $(NF), $(NF-1)}' "$res/$name.txt")"
}
if want session18d; then
  # Session 18: which kernels gain from 32-bit cell offsets (CellFrame)? Builds (kCellOffsets set per
  # stage in mpdata_stages.cu): _mixA (limiter
  # factors and limited pass), _mixB (and the upwind passes), _mixC (and the upwind gauge a
  # constant), _cpk (every kernel, gauge constant), _base (session 17). Kernel times at the
  # benchmark's clocks, then alternating rounds.
  for v in base mixA mixB mixC cpk; do
    TDC_EXE=taskdycore_$v ncu_times s18d_t_${v}_G 6
    TDC_EXE=taskdycore_$v ncu_times s18d_t_${v}_iga 4 --iga on --density unit
  done
  for round in 1 2 3; do mpdata_round s18d $round "G iga" mixA mixB mixC base; done
  rounds_summary s18d base mixA mixB mixC
fi
if want session18e; then
  # Session 18, final code: CellFrame (32-bit cell offsets) in the limiter's factors at G = 1 in the
  # infinite gauge and in the limited pass with G, TileFrame elsewhere (bin/taskdycore), against the
  # session-17 build (_base): kernel tests, GPU against 16 CPU workers, 2x2 tiles with overlap, kernel
  # times, alternating rounds, TG 256^3.
  kernel_tests s18e
  cpu_gpu_runs s18e --grid 128x128x128 --steps 20 --repeat 2 --warmup 20 --tiles 2x2 --overlap off --direct off
  for v in new base; do
    exe=taskdycore; [ $v = new ] || exe=taskdycore_$v
    for f in G iga; do
      extra=(); [ $f = iga ] && extra=(--iga on --density unit)
      TDC_EXE=$exe bench s18e_${v}_${f}_2x2 STARPU_NCPU=0 -- --grid 256x256x256 --steps 20 --repeat 1 --warmup 5 --tiles 2x2 --overlap on "${extra[@]}"
    done
  done
  ncu_times s18e_t_new_G 6
  ncu_times s18e_t_new_iga 4 --iga on --density unit
  for round in 1 2 3; do mpdata_round s18e $round "G iga" new base; done
  rounds_summary s18e base new
  python3 - "$res" <<'PY'
import json, sys
c = lambda n: json.load(open(f"{sys.argv[1]}/{n}.json"))["field_checksum"]
for f in ("G", "iga"):
    print(f"256^3, 2x2 tiles, overlap on, {f}: same bits as base:", c(f"s18e_new_{f}_2x2") == c(f"s18e_base_{f}_2x2"))
PY
  mg_runs
  variant_rounds s18e_tg256 taskdycore taskdycore_base
  same_bits s18e_tg256_new_1 s18e_tg256_base_1
fi
if want session18h; then
  # Session 18: is CPU+GPU slower than the GPU alone because the node is oversubscribed? 16 cores:
  # 15 CPU workers + the CUDA worker + StarPU-MPI's progress thread + the submitting thread. GPU alone
  # against 15, 14 and 13 CPU workers and StarPU's own default (STARPU_NCPU unset), two rounds.
  for round in 1 2; do
    for t in 1x1 2x2; do
      bench s18h_gpu_${t}_$round STARPU_NCPU=0 -- "${g[@]}" --tiles $t --overlap off --direct off --warmup 40
      for n in 15 14 13; do
        bench s18h_cpu${n}_${t}_$round STARPU_NCPU=$n -- "${g[@]}" --tiles $t --overlap off --direct off --warmup 40
      done
      bench s18h_default_${t}_$round -- "${g[@]}" --tiles $t --overlap off --direct off --warmup 40
      python3 -c "import json, sys; print('StarPU default workers:', json.load(open(sys.argv[1]))['workers'])" "$res/s18h_default_${t}_$round.json"
    done
  done
fi
if want session18i; then
  # Session 18: CPU+GPU with diagnostics (every step, every 10 steps), 1x1: is its slowdown the node's
  # oversubscription? GPU alone against 15, 14 and 13 CPU workers, two alternating rounds.
  for round in 1 2; do
    for d in 1 10; do
      for n in 0 15 14 13; do
        bench s18i_cpu${n}_diag${d}_$round STARPU_NCPU=$n -- "${g[@]}" --tiles 1x1 --overlap off --direct off --warmup 40 --diagnostics $d
      done
    done
  done
fi
if want sass_mix; then
  # The SASS instruction mix of the dynamical core's fct_beta kernel (G = 1, infinite gauge): what its
  # ~570 instructions per cell are made of (cuobjdump is on the node, not on the VM).
  cuobjdump -sass "$(command -v taskdycore)" > /tmp/sass.txt 2>/dev/null  # ~30 MB: not in $res
  echo "DMNMX (FP64 min/max) in the whole binary: $(grep -c DMNMX /tmp/sass.txt)"
  awk '/Function : .*fct_beta_kernelINS0_10DensityOneELb1/{f=1} f&&/Function : /&&!/fct_beta_kernelINS0_10DensityOneELb1/{f=0} f' \
    /tmp/sass.txt | grep -oE "^\s+/\*[0-9a-f]+\*/\s+[A-Z0-9.]+" | awk '{print $2}' | sed 's/\..*//' | sort | uniq -c | sort -rn | head -25
fi
if want table11_128; then
  # GPU half of paper 000 Table XI at 128^3 (the CPU half is tools/table11_cpu.sh, ~18 min on the VM:
  # same settings, tiles 2x1, 2 CPU workers; compare the velocity checksums).
  run t11_128_gpu STARPU_NCPU=0 -- cases/taylor_green.toml --set case.initial='"taylor_green_modified"' \
    --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=0.01 --set time.steps=400 \
    --set output.fields_interval=200 --set output.checkpoint_interval=50 --set diagnostics.interval=50 \
    --set solver.method=pcg --set solver.max_iter=300
  python3 -c "import json; s=json.load(open('$res/t11_128_gpu/summary.json')); print('t11_128_gpu', [(r['step'], r['velocity_checksum']) for r in s['field_records']], 'ms/step', s['ms_per_step'])"
fi
if want ncu && command -v ncu >/dev/null; then
  STARPU_NCPU=0 timeout 300 ncu --target-processes all --kernel-name regex:'fused|precon_kernel|apply_kernel|direction_kernel' \
    --launch-skip 20 --launch-count 8 --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
    taskdycore bench elliptic --grid 256x256x128 --iterations 10 --repeat 1 --csr off --tolerances off > "$res/ncu_elliptic.txt" 2>&1
  echo "ncu exit $?"; grep -E '^  [a-z_]+.*\(|DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per|Duration' "$res/ncu_elliptic.txt" | head -60
fi
for d in "$res"/*/summary.json; do if [ -e "$d" ]; then rm -f "$(dirname "$d")/fields.h5" "$(dirname "$d")/fields.xmf" "$(dirname "$d")/checkpoint.h5"; fi; done
if want session12_ncu_passes; then
  mg_runs
  # Session 12: why the Hartley passes stay near 45 % of DRAM peak: warp stalls, memory and
  # shared-memory workload of one x, y and cycle pass (kernels launched directly).
  command -v ncu >/dev/null && TASKDYCORE_GATED_GRAPHS=off STARPU_NCPU=0 timeout 300 ncu --target-processes all \
    --kernel-name regex:'hartley_pass' --launch-skip 0 --launch-count 3 --section SpeedOfLight --section WarpStateStats \
    --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Chart --section SchedulerStats --section Occupancy \
    --section LaunchStats --section InstructionStats taskdycore run "${tg[@]}" "${g256[@]}" "${sp[@]}" --set time.steps=1 \
    --out "$res/ncu_passes_run" > "$res/ncu_passes.txt" 2>&1
  echo "ncu exit $?"
  grep -vE "^==PROF==|^\s*$|---" "$res/ncu_passes.txt" | grep -E "hartley|Stall|stall|Throughput|Bank|Warp Cycles|Issued|Eligible|Active Warps|Duration|Hit Rate|Executed Ipc|L1/TEX|L2|Shared|Mem Busy|Max Bandwidth|Memory \[|One or More|No Eligible" | head -120
fi
