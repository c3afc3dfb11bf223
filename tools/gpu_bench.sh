#!/usr/bin/env bash
# GPU checks and benchmarks on the device machine, in named suites. Here: tools/build.sh, then
# tools/make_bundle.sh (bundle/: the programs and the libraries the node lacks, StarPU among them).
# There, from the repo root with bundle/ carried:
#   tools/gpu_bench.sh BUNDLE [--baseline EXE] [--rounds N] SUITE...
# Suites (`all`: tests mpdata elliptic dycore hybrid):
#   tests     test_kernels (CPU/CUDA agreement), test_csr_pcg, test_model, ctest's script tests, and
#             CPU-against-GPU bitwise runs (advection, MPDATA with G and at G = 1, thin shell, Taylor-Green)
#   mpdata    bench mpdata at 256^3 (graph and direct, with G and at G = 1), 2x2 tiles, FCT off, 512x512x128
#   elliptic  bench elliptic at 256x256x128 (fused/unfused PCG, GCR(3), cuSPARSE), 2x2 tiles, 512x512x128
#   dycore    Taylor-Green and thermal bubble whole steps (spectral, GCR, multigrid), diagnostics
#             overhead, Re = 1600, the GPU half of paper 000 Table XI at 128^3
#   hybrid    CPU+GPU (StarPU's default worker count, 15 workers) against the GPU alone
#   scaling   tools/scaling.sh over 1, 2, 4 (8) GPUs: weak and strong, one process and a rank per GPU
#   reduction bench reduction (latency of one global reduction): 1, 2, 4 GPUs in one process and 2, 4
#             ranks of a GPU each, against the dot tasks alone
#   profile   ncu (metrics, and kernel times at the benchmark's clocks) and nsys of the MPDATA kernels;
#             an FxT trace of Taylor-Green 256^3 in profile_trace_tg256_fxt (here: tools/trace DIR --steps 3)
# --baseline EXE: every timed case also runs EXE (e.g. bundle/bin/taskdycore_base, an earlier build
# copied into the bundle), alternating with this build round by round; the summary gives both builds'
# times, their ratio and whether the results are the same bits. --rounds N overrides each suite's count.
# Output: one $OUT/SUITE.txt per suite (the key lines, also on stdout), everything in $OUT/results.tgz.
# Figures are FP64, MPDATA iord 2; docs/performance.md gives each one with its suite.
set -u
usage() { sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 2 ] || usage
bundle=$1; shift
baseline=""; opt_rounds=""; suites=()
while [ $# -gt 0 ]; do
  case $1 in
    --baseline) baseline=$2; shift 2 ;;
    --rounds) opt_rounds=$2; shift 2 ;;
    all) suites+=(tests mpdata elliptic dycore hybrid); shift ;;
    tests|mpdata|elliptic|dycore|hybrid|scaling|reduction|profile) suites+=("$1"); shift ;;
    *) echo "unknown argument: $1" >&2; usage ;;
  esac
done
source "$(dirname "$0")/gpu_common.sh" "$bundle"
builds=(new)
if [ -n "$baseline" ]; then
  command -v "$baseline" >/dev/null || { echo "no baseline executable: $baseline" >&2; exit 2; }
  baseline=$(command -v "$baseline"); builds+=(base)
fi
exe_of() { if [ "$1" = new ]; then echo taskdycore; else echo "$baseline"; fi; }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader | tee "$res/gpu.txt"
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')

# ab RUNNER NAME ENV... -- ARGS...: RUNNER (bench, bench_elliptic, run) for each build in turn, $rounds
# rounds (R=1 ab ... for one): results NAME_new_ROUND and, with --baseline, NAME_base_ROUND.
ab() {
  local runner=$1 name=$2 r b; shift 2
  for r in $(seq "${R:-$rounds}"); do
    for b in "${builds[@]}"; do TDC_EXE=$(exe_of "$b") "$runner" "${name}_${b}_$r" "$@"; done
  done
}
# One line per case of the results named PREFIX*_BUILD_ROUND: each build's figures by round (bench
# mpdata: graph/direct ms a step; run: ms a step; bench elliptic: ms an iteration per solver), the
# ratio of the medians and whether the two builds' results are the same bits.
ab_summary() {
  python3 - "$res" "$1" <<'PY'
import glob, json, os, re, statistics, sys
r, prefix = sys.argv[1:]
def figures(j):
    if j.get("benchmark") == "elliptic":
        f = {k: v["ms_per_iteration"] for k, v in j["variants"].items()}
        if "fused_speedup_over_cusparse" in j:
            f["fused_x_cusparse"] = j["fused_speedup_over_cusparse"]
        return f
    f = {"ms": j["ms_per_step"]}
    if "direct_ms_per_step" in j:
        f["direct"] = j["direct_ms_per_step"]
    return f
cases = {}
found = [(os.path.basename(p)[:-5], p) for p in glob.glob(f"{r}/{prefix}*.json")]
found += [(os.path.basename(os.path.dirname(p)), p) for p in glob.glob(f"{r}/{prefix}*/summary.json")]
for n, p in found:
    m = re.fullmatch(r"(.*)_(new|base)_(\d+)", n)
    if m:
        cases.setdefault(m[1], {}).setdefault(m[2], []).append((int(m[3]), json.load(open(p))))
for case in sorted(cases):
    line, med = [case], {}
    for b in ("new", "base"):
        runs = sorted(cases[case].get(b, []), key=lambda x: x[0])
        if not runs:
            continue
        figs = [figures(j) for _, j in runs]
        for k in figs[0]:
            vals = [f[k] for f in figs if k in f]
            med[b, k] = statistics.median(vals)
            line.append(f"{b} {k} " + " ".join(f"{v:.3f}" for v in vals))
    for (b, k), v in med.items():
        if b == "new" and ("base", k) in med:
            line.append(f"new/base {k} {v / med['base', k]:.3f}")
    if "base" in cases[case]:
        sums = lambda j: {k: v for k, v in j.items() if k.endswith("checksum")}
        same = [sums(a) == sums(b) for (_, a), (_, b) in zip(sorted(cases[case]["new"], key=lambda x: x[0]), sorted(cases[case]["base"], key=lambda x: x[0]))]
        if any(sums(j) for _, j in cases[case]["new"]):
            line.append(f"same bits: {all(same)}")
    print(" | ".join(line))
PY
}

suite_tests() {
  local t s
  for t in test_kernels test_csr_pcg test_model; do
    STARPU_NCPU=2 timeout 300 "$t" > "$res/tests_$t.txt" 2>&1
    echo "$t exit $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$res/tests_$t.txt" | tr '\n' ' ')"
    grep -E '^\[  FAILED' "$res/tests_$t.txt" | head -20
  done
  # ctest's script tests (tests/CMakeLists.txt passes each the binary and the repo root).
  for s in tests/cli/*.sh tests/mpi/*.sh; do
    STARPU_NCPU=2 timeout 300 bash "$s" "$(command -v taskdycore)" "$PWD" > "$res/tests_$(basename "$s" .sh).txt" 2>&1
    echo "$s exit $?"
  done
  local small=(cases/deformational.toml --set time.steps=96 --set output.interval=24)
  run tests_adv_cpu STARPU_NCUDA=0 STARPU_NCPU=8 -- "${small[@]}"
  run tests_adv_gpu STARPU_NCPU=0 -- "${small[@]}"
  run tests_adv_hybrid STARPU_NCPU=8 -- "${small[@]}"
  same_bits tests_adv_cpu tests_adv_gpu; same_bits tests_adv_cpu tests_adv_hybrid
  local mid=(--grid 128x128x128 --steps 20 --repeat 2 --warmup 20 --tiles 2x2 --overlap off --direct off) v
  for v in G iga; do
    local extra=(); [ $v = iga ] && extra=(--iga on --density unit)
    bench tests_mpdata_cpu_$v STARPU_NCUDA=0 STARPU_NCPU=16 -- "${mid[@]}" "${extra[@]}"
    bench tests_mpdata_gpu_$v STARPU_NCPU=0 -- "${mid[@]}" "${extra[@]}"
    same_bits tests_mpdata_cpu_$v tests_mpdata_gpu_$v
  done
  local ts=(cases/thin_shell_elliptic.toml --set grid.nx=256 --set grid.ny=256 --set grid.nz=128 --set output.fields=false)
  run tests_ts_gpu STARPU_NCPU=0 -- "${ts[@]}"
  run tests_ts_cpu STARPU_NCUDA=0 STARPU_NCPU=16 -- "${ts[@]}" --set tiles.x=4 --set tiles.y=4
  run tests_ts_gpu_2x2 STARPU_NCPU=0 -- "${ts[@]}" --set tiles.x=2 --set tiles.y=2
  same_bits tests_ts_gpu tests_ts_cpu; same_bits tests_ts_gpu tests_ts_gpu_2x2
  local tg=(cases/taylor_green.toml --set grid.nx=32 --set grid.ny=32 --set grid.nz=32 --set time.dt=0.04 --set time.steps=20)
  run tests_tg_cpu STARPU_NCUDA=0 STARPU_NCPU=16 -- "${tg[@]}" --set tiles.x=2 --set tiles.y=2
  run tests_tg_gpu STARPU_NCPU=0 -- "${tg[@]}"
  same_bits tests_tg_cpu tests_tg_gpu
}

suite_mpdata() {
  local rounds=${opt_rounds:-3} g=(--grid 256x256x256 --steps 20 --repeat 5 --warmup 5)
  ab bench mpdata_G_1x1 STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off
  ab bench mpdata_iga_1x1 STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off --iga on --density unit
  R=1 ab bench mpdata_G_2x2_overlap STARPU_NCPU=0 -- "${g[@]}" --tiles 2x2 --overlap on
  R=1 ab bench mpdata_iga_2x2_overlap STARPU_NCPU=0 -- "${g[@]}" --tiles 2x2 --overlap on --iga on --density unit
  R=1 ab bench mpdata_G_fctoff STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --overlap off --fct off
  R=1 ab bench mpdata_G_512x512x128 STARPU_NCPU=0 -- --grid 512x512x128 --steps 20 --repeat 5 --warmup 5 --tiles 1x1 --overlap off
  ab_summary mpdata_
}

suite_elliptic() {
  local rounds=${opt_rounds:-3} e=(--grid 256x256x128 --iterations 50 --repeat 3 --tolerances off)
  ab bench_elliptic elliptic_256 STARPU_NCPU=0 -- "${e[@]}"  # every solver and cuSPARSE in one process
  R=1 ab bench_elliptic elliptic_256_2x2 STARPU_NCPU=0 -- "${e[@]}" --tiles 2x2 --csr off
  R=1 ab bench_elliptic elliptic_512 STARPU_NCPU=0 -- --grid 512x512x128 --iterations 30 --repeat 3 --csr off --tolerances off
  bench_elliptic elliptic_tolerances STARPU_NCPU=0 -- --grid 256x256x128 --iterations 50 --repeat 1 --csr off
  ab_summary elliptic_
}

suite_dycore() {
  local rounds=${opt_rounds:-2}
  local tg=(cases/taylor_green.toml --set output.fields=false --set output.checkpoint=false)
  local g256=(--set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set time.dt=0.005)
  local g128=(--set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=0.01)
  local mg=(--set solver.preconditioner='"multigrid"' --set solver.max_iter=40)
  local bub=(cases/thermal_bubble.toml --set output.fields=false --set output.checkpoint=false --set diagnostics.interval=20)
  ab run dycore_tg256 STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" --set time.steps=200 --set diagnostics.interval=50
  R=1 ab run dycore_tg256_gcr STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" --set time.steps=200 --set diagnostics.interval=50 --set solver.method='"gcr"'
  R=1 ab run dycore_tg256_multigrid STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" "${mg[@]}" --set time.steps=40
  R=1 ab run dycore_tg128 STARPU_NCPU=0 -- "${tg[@]}" "${g128[@]}" --set time.steps=100
  ab run dycore_bubble128 STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=1.0 --set time.steps=600
  R=1 ab run dycore_bubble256 STARPU_NCPU=0 -- "${bub[@]}" --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set time.dt=0.5 --set time.steps=100
  # Diagnostics every step against once a run (asynchronous, off the critical path), alternated.
  local d
  for d in 1 60; do R=2 ab run dycore_tg256_diag$d STARPU_NCPU=0 -- "${tg[@]}" "${g256[@]}" --set time.steps=60 --set diagnostics.interval=$d; done
  run dycore_re1600_128 STARPU_NCPU=0 -- cases/taylor_green_re1600.toml "${g128[@]}" --set time.steps=1200 --set diagnostics.interval=20 --set output.fields=false
  # Paper 000 Table XI at 128^3, GPU half (the CPU half: tools/table11_cpu.sh on a CPU machine); compare
  # the velocity checksums of field_records.
  run dycore_table11_128 STARPU_NCPU=0 -- cases/taylor_green.toml --set case.initial='"taylor_green_modified"' "${g128[@]}" \
    --set time.steps=400 --set output.fields_interval=200 --set output.checkpoint_interval=50 --set diagnostics.interval=50 --set solver.method=pcg --set solver.max_iter=300
  python3 -c "import json, sys; s = json.load(open(sys.argv[1])); print('table11_128 GPU', [(r['step'], r['velocity_checksum']) for r in s['field_records']])" \
    "$res/dycore_table11_128/summary.json"
  dycore_summary $(cd "$res" && ls -d dycore_*/ | tr -d /)
  ab_summary dycore_
}

suite_hybrid() {
  local rounds=${opt_rounds:-2} t d g=(--grid 256x256x256 --steps 20 --repeat 5 --warmup 40 --overlap off --direct off)
  # StarPU's default CPU worker count (STARPU_NCPU unset: 14 beside one GPU on 16 cores) and 15, which
  # leaves no core for the submitting thread (taskdycore warns).
  for t in 1x1 2x2; do
    ab bench hybrid_gpu_$t STARPU_NCPU=0 -- "${g[@]}" --tiles $t
    ab bench hybrid_default_$t -- "${g[@]}" --tiles $t
    R=1 ab bench hybrid_cpu15_$t STARPU_NCPU=15 -- "${g[@]}" --tiles $t
    R=1 ab bench hybrid_cpusteps_$t -- "${g[@]}" --tiles $t --cpu-steps on
  done
  for d in 1 10; do
    ab bench hybrid_gpu_diag$d STARPU_NCPU=0 -- "${g[@]}" --tiles 1x1 --diagnostics $d
    ab bench hybrid_default_diag$d -- "${g[@]}" --tiles 1x1 --diagnostics $d
  done
  python3 -c "import json, sys; print('StarPU default workers:', json.load(open(sys.argv[1]))['workers'])" "$res/hybrid_default_1x1_new_1.json"
  local tg=(cases/taylor_green.toml --set output.fields=false --set output.checkpoint=false --set grid.nx=256 --set grid.ny=256
            --set grid.nz=256 --set time.dt=0.005 --set time.steps=100)
  R=1 ab run hybrid_tg256_gpu STARPU_NCPU=0 -- "${tg[@]}"
  R=1 ab run hybrid_tg256_default -- "${tg[@]}"
  same_bits hybrid_tg256_gpu_new_1 hybrid_tg256_default_new_1
  ab_summary hybrid_
}

# Weak and strong scaling over the node's GPUs, one process and a rank per GPU: tools/scaling.sh
# (steady-state ms/step, efficiency, same bits across ranks), for this build and the --baseline.
suite_scaling() {
  local b gpus=1 g exe rank_gpu
  for g in 2 4 8; do [ "$g" -le "$ngpu" ] && gpus="$gpus $g"; done
  for b in "${builds[@]}"; do
    echo "scaling, build $b:"
    exe=$(command -v "$(exe_of "$b")")
    # A CUDA-aware MPI (TASKDYCORE_MPI=cuda) moves GPU data by CUDA IPC, which needs every GPU visible.
    rank_gpu=visible
    "$exe" info 2> /dev/null | grep -q "CUDA-aware MPI): yes" && rank_gpu=workers
    tools/scaling.sh --exe "$exe" --gpus "$gpus" --rank-gpu "$rank_gpu" "$res/scaling_$b"
  done
}

# The latency of one global reduction (bench reduction, 64x64x16 so that the dot kernels are tiny; this
# build only: older builds lack the command): one tile on one GPU, 2 tiles on one GPU, a tile per GPU in
# one process (2, 4 GPUs), a rank per GPU (2, 4 ranks; each sees its GPU by local rank, as
# tools/scaling.sh launches them), and one tile on one CPU worker for contrast. GPU workers only.
suite_reduction() {
  local a=(--grid 64x64x16 --rounds 500 --repeat 7) g tiles
  printf '#!/bin/sh\nexport CUDA_VISIBLE_DEVICES=${OMPI_COMM_WORLD_LOCAL_RANK:-0}\nexec "$@"\n' > "$res/rank_gpu.sh"
  chmod +x "$res/rank_gpu.sh"
  bench_reduction reduction_cpu1_1x1 STARPU_NCUDA=0 STARPU_NCPU=1 -- "${a[@]}" --tiles 1x1
  bench_reduction reduction_gpu1_1x1 STARPU_NCPU=0 STARPU_NCUDA=1 -- "${a[@]}" --tiles 1x1
  bench_reduction reduction_gpu1_2x1 STARPU_NCPU=0 STARPU_NCUDA=1 -- "${a[@]}" --tiles 2x1
  for g in 2 4; do
    [ "$g" -le "$ngpu" ] || { echo "($g GPUs: the node has $ngpu)"; continue; }
    tiles=2x1; [ "$g" = 4 ] && tiles=2x2
    bench_reduction reduction_gpu${g}_$tiles STARPU_NCPU=0 STARPU_NCUDA=$g -- "${a[@]}" --tiles $tiles
    TDC_LAUNCH="mpirun -np $g -x STARPU_NCPU -x STARPU_SILENT -x STARPU_HOME -x LD_LIBRARY_PATH $res/rank_gpu.sh" \
      bench_reduction reduction_ranks${g}_$tiles STARPU_NCPU=0 -- "${a[@]}" --tiles $tiles
  done
}

# ncu metrics of the MPDATA stage kernels (step 61 at 256^3: duration, DRAM, occupancy, registers,
# warp instructions, FP64 pipe, issue, stalls) of ${TDC_EXE:-taskdycore}: NAME, launches a step (6
# with G, 4 at G = 1: no fix-ups there), then extra bench arguments.
ncu_pipes() {
  local name=$1 per_step=$2; shift 2
  local m=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
  m=$m,launch__registers_per_thread,smsp__inst_executed.sum,sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active
  m=$m,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
  m=$m,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warp_latency_per_inst_issued.ratio
  STARPU_NCPU=0 timeout 240 ncu --target-processes all --kernel-name regex:'cell_kernel|fixup' --launch-skip $((60 * per_step)) \
    --launch-count "$per_step" --metrics "$m" "${TDC_EXE:-taskdycore}" bench mpdata --grid 256x256x256 --steps 10 --repeat 1 \
    --warmup 60 --tiles 1x1 --overlap off --direct off "$@" > "$res/$name.txt" 2>&1
  echo "ncu $name exit $?"
  awk '/^  [a-z_].*(cell_kernel|fixup_kernel)/{k=$0; sub(/\(Cells.*|\(FixupList.*/, "", k); gsub(/void |tdc::|mpdata::|<unnamed>::|ExactDivide, /, "", k); print "  " k}
       /gpu__time|dram__|warps_active|registers_per|inst_executed.sum|pipe_fp64|issue_active|long_scoreboard|warp_latency/{print "      " $1, $(NF)}' "$res/$name.txt" | head -80
}
# The same launches' durations at the benchmark's clocks with warm caches (ncu --clock-control none
# --cache-control none), one line: NAME, launches a step, extra bench arguments.
ncu_times() {
  local name=$1 per_step=$2; shift 2
  STARPU_NCPU=0 timeout 240 ncu --target-processes all --clock-control none --cache-control none --kernel-name regex:'cell_kernel|fixup' \
    --launch-skip $((60 * per_step)) --launch-count "$per_step" --metrics gpu__time_duration.sum "${TDC_EXE:-taskdycore}" bench mpdata \
    --grid 256x256x256 --steps 10 --repeat 1 --warmup 60 --tiles 1x1 --overlap off --direct off "$@" > "$res/$name.txt" 2>&1
  echo "$name: $(awk '/^  [a-z_].*(cell_kernel|fixup_kernel)/{k=$0; sub(/\(Cells.*|\(FixupList.*/, "", k); sub(/.*(cell_kernel|fixup_kernel)<[^A-Z]*/, "", k); sub(/Cell<.*/, "", k)}
       /gpu__time_duration/{printf "%s %s%s; ", k, $(NF), $(NF-1)}' "$res/$name.txt")"
}
suite_profile() {
  local b
  if command -v ncu >/dev/null; then
    for b in "${builds[@]}"; do
      TDC_EXE=$(exe_of "$b") ncu_pipes profile_ncu_${b}_G 6
      TDC_EXE=$(exe_of "$b") ncu_pipes profile_ncu_${b}_iga 4 --iga on --density unit
      TDC_EXE=$(exe_of "$b") ncu_times profile_times_${b}_G 6
      TDC_EXE=$(exe_of "$b") ncu_times profile_times_${b}_iga 4 --iga on --density unit
    done
  else
    echo "no ncu on this node"
  fi
  if command -v nsys >/dev/null; then
    STARPU_NCPU=0 timeout 240 nsys profile --force-overwrite true -o /tmp/profile_mpdata taskdycore bench mpdata --grid 256x256x256 \
      --steps 20 --repeat 1 --warmup 5 --tiles 1x1 --overlap off --direct off > "$res/profile_nsys.log" 2>&1
    nsys stats --report cuda_gpu_kern_sum /tmp/profile_mpdata.nsys-rep > "$res/profile_nsys_kernels.txt" 2>&1
    echo "nsys: kernel summary"; grep -E 'kernel|Time' "$res/profile_nsys_kernels.txt" | cut -c1-200 | head -20
  else
    echo "no nsys on this node"
  fi
  run profile_trace_tg256 STARPU_NCPU=0 -- cases/taylor_green.toml --set output.fields=false --set output.checkpoint=false \
    --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set time.dt=0.005 --set time.steps=14 --set diagnostics.interval=7 \
    --trace "$res/profile_trace_tg256_fxt"
}

for s in "${suites[@]}"; do
  echo "== $s $(date -u +%FT%TZ)" | tee -a "$OUT/$s.txt"
  "suite_$s" 2>&1 | tee -a "$OUT/$s.txt"
done
