#!/usr/bin/env bash
# Weak and strong scaling over the GPUs of one node, in one process and with one rank per GPU:
# Taylor-Green (spectral preconditioner), the thermal bubble and MPDATA alone. Prints one table:
# ms/step in steady state, speed-up and efficiency against one GPU, and the MB a step moved between
# GPUs (one process: StarPU's bus counts) or sent between ranks (StarPU-MPI's counts), and writes it
# to OUT/scaling.txt.
#
#   tools/scaling.sh [--exe EXE] [--gpus "1 2 4"] [--per-gpu 256x256x256] [--strong 512x512x256]
#                    [--steps N] [--ranks on|off] [--mpdata on|off] [--layout rows|2d] [--set KEY=VALUE ...]
#                    [--rank-gpu visible|workers] [--repeat R] [--trace on|off] OUT
#
# Weak: the per-GPU grid (and the case's domain) times the tile layout, a tile per GPU: 1xG by default (tiles span x, so the
# spectral preconditioner splits its chains along y and moves no transposes), or --layout 2d (2x1,
# 2x2, 4x2: two transposes a solve).
# Strong: the --strong grid on each GPU count. Steady state: one run of N steps (100 by default), timed
# by the run itself over its last three quarters (summary.json's steady.ms_per_step, from when the host
# read each step's check), so that start-up (allocation, the first upload, perf-model calibration) drops
# out. (The difference of an N- and a 2N-step run, used before, carried the spread of start-up between
# runs into the figure: the same build's 4-GPU Taylor-Green gave 9.10 and 8.22 ms/step on one node.) MPDATA: `bench mpdata --overlap on` (its
# own warm-up and median). One rank per GPU:
# mpirun -np G, each rank seeing its GPU by local rank. --trace on adds, for every row of several GPUs,
# the share of its transfer time hidden behind tasks: an FxT trace of 12 steps of the same run,
# `tools/trace DIR --steps 4` (the window's transfers between GPUs, or between ranks, during which a
# GPU of the process or rank ran a task; the traces stay in OUT). --set passes a case key to
# every dycore run (say solver.method=pcg, to compare solvers with one build). --repeat R measures every
# dycore row R times, back to back (a node's runs spread by 10 % and more): the table gives the median
# and the range.
set -euo pipefail
exe=taskdycore gpus="1 2 4" per=256x256x256 strong=512x512x256 steps=100 ranks=on tiling=rows with_mpdata=on sets=()
rank_gpu=visible repeat=1 with_trace=off
while [ $# -gt 1 ]; do
  case $1 in
    --exe) exe=$2; shift 2 ;;
    --gpus) gpus=$2; shift 2 ;;
    --per-gpu) per=$2; shift 2 ;;
    --strong) strong=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --layout) tiling=$2; shift 2 ;;
    --mpdata) with_mpdata=$2; shift 2 ;;
    --rank-gpu) rank_gpu=$2; shift 2 ;;
    --trace) with_trace=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2; [ "$repeat" -ge 1 ] 2>/dev/null || { echo "scaling: --repeat needs a count >= 1" >&2; exit 2; } ;;
    --set) sets+=(--set "$2"); shift 2 ;;
    *) echo "scaling: unknown option $1" >&2; exit 2 ;;
  esac
done
[ $# -eq 1 ] || { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
out=$1; mkdir -p "$out"
have=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 STARPU_SILENT=${STARPU_SILENT:-1}
layout() {
  if [ "$tiling" = rows ]; then echo "1 $1"; return; fi
  case $1 in 1) echo "1 1" ;; 2) echo "2 1" ;; 4) echo "2 2" ;; 8) echo "4 2" ;; *) echo "$1 1" ;; esac
}
IFS=x read -r px py pz <<< "$per"
IFS=x read -r sx sy sz <<< "$strong"
# A rank's GPU: hidden from the others (CUDA_VISIBLE_DEVICES), or, with --rank-gpu workers, every GPU
# visible and the rank's CUDA worker on its own (STARPU_WORKERS_CUDAID): a CUDA-aware MPI
# (TASKDYCORE_MPI=cuda) needs the peers' GPUs visible for CUDA IPC between the ranks.
gpu_env='CUDA_VISIBLE_DEVICES=${OMPI_COMM_WORLD_LOCAL_RANK:-0}'
[ "$rank_gpu" = workers ] && gpu_env='STARPU_NCUDA=1 STARPU_WORKERS_CUDAID=${OMPI_COMM_WORLD_LOCAL_RANK:-0}'
printf '#!/bin/sh\nexport %s\nexec "$@"\n' "$gpu_env" > "$out/rank_gpu.sh"
chmod +x "$out/rank_gpu.sh"

# length CASE KEY FACTOR: the case file's grid length times FACTOR.
length() {
  python3 -c "import sys, tomllib; g = tomllib.load(open(sys.argv[1], 'rb'))['grid']; print(repr(g[sys.argv[2]] * int(sys.argv[3])))" \
    "cases/$1.toml" "$2" "$3"
}

# moved LOG_OR_BUS_FILE: bytes moved in a run, StarPU's own counts: in one process the bytes copied
# between GPUs (STARPU_BUS_STATS_FILE), over ranks the bytes the ranks sent (STARPU_MPI_STATS, in the log).
moved() {
  python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
ranks = re.findall(r"\[starpu_comm_stats\]\[\d+\] TOTAL:\s+([0-9.e+]+) B", text)
if ranks:
    print(sum(float(b) for b in ranks))
else:
    links = re.findall(r"^\s*(\S.*?) -> (\S.*?)\t([0-9.]+) GB", text, re.M)
    print(sum(float(gb) * 2**30 for a, b, gb in links if a.startswith("CUDA") and b.startswith("CUDA")))
PY
}

# steady NAME GPUS MODE(process|ranks) CASE NX NY NZ TX TY: prints the steady-state ms/step (the run's
# summary.json steady.ms_per_step) and the MB moved a step (between GPUs in one process, between ranks
# over ranks; the run's total over its steps).
# run_args NAME CASE NX NY NZ TX TY: the taskdycore arguments of a row (into the array `args`).
run_args() {
  local name=$1 case=$2
  args=(run "cases/$case.toml" --set output.fields=false --set output.checkpoint=false --set diagnostics.interval=1000
        --set grid.nx="$3" --set grid.ny="$4" --set grid.nz="$5" --set tiles.x="$6" --set tiles.y="$7" --force)
  # Weak runs keep the cell size: the domain grows with the tiles (Taylor-Green's flow is periodic
  # in 2 pi, so a longer domain holds copies of the same vortex).
  [[ $name == *strong* ]] || args+=(--set grid.lx="$(length "$case" lx "$6")" --set grid.ly="$(length "$case" ly "$7")")
  [ "$case" = taylor_green ] && args+=(--set time.dt=0.005)
  [ "$case" = thermal_bubble ] && args+=(--set time.dt=0.5)
  args+=(${sets[@]+"${sets[@]}"})
}

steady() {
  local name=$1 g=$2 mode=$3 case=$4 nx=$5 ny=$6 nz=$7 tx=$8 ty=$9 args
  run_args "$name" "$case" "$nx" "$ny" "$nz" "$tx" "$ty"
  local dir="$out/$name" bytes
  if [ "$mode" = ranks ]; then
    STARPU_NCPU=2 STARPU_MPI_STATS=1 timeout 600 mpirun -np "$g" -x STARPU_NCPU -x STARPU_SILENT -x STARPU_HOME -x LD_LIBRARY_PATH \
      -x STARPU_MPI_STATS "$out/rank_gpu.sh" "$(command -v "$exe")" "${args[@]}" --set time.steps="$steps" --out "$dir" > "$dir.log" 2>&1 \
      || { echo nan nan; return; }
    bytes=$(moved "$dir.log")
    rm -f "$dir.log"  # kept only when the run failed (above)
  else
    STARPU_NCPU=2 STARPU_NCUDA="$g" STARPU_BUS_STATS=1 STARPU_BUS_STATS_FILE="$dir.bus" timeout 600 "$exe" "${args[@]}" \
      --set time.steps="$steps" --out "$dir" > "$dir.log" 2>&1 || { echo nan nan; return; }
    bytes=$(moved "$dir.bus")
    rm -f "$dir.bus" "$dir.log"
  fi
  rm -f "$dir"/diagnostics.*  # the table needs summary.json only (few files to bring back from a node)
  python3 -c "import json, sys
s = json.load(open(sys.argv[1]))
print('%.3f %.1f' % (s['steady']['ms_per_step'], float(sys.argv[2]) / s['steps_this_run'] / 2**20))" "$dir/summary.json" "$bytes"
}
# hidden NAME GPUS MODE CASE NX NY NZ TX TY: the share of the transfer time hidden behind tasks in the
# last 4 of 12 traced steps (tools/trace), "-" for one GPU or when the trace fails.
hidden() {
  local name=$1 g=$2 mode=$3 dir="$out/$1-trace" args
  [ "$with_trace" = on ] && [ "$g" -gt 1 ] || { echo -; return; }
  run_args "$name" "$4" "$5" "$6" "$7" "$8" "$9"
  args+=(--set time.steps=12 --out "$dir/run" --trace "$dir/fxt")
  if [ "$mode" = ranks ]; then
    STARPU_NCPU=2 timeout 600 mpirun -np "$g" -x STARPU_NCPU -x STARPU_SILENT -x STARPU_HOME -x LD_LIBRARY_PATH \
      "$out/rank_gpu.sh" "$(command -v "$exe")" "${args[@]}" > "$dir.log" 2>&1 || { echo -; return; }
  else
    STARPU_NCPU=2 STARPU_NCUDA="$g" timeout 600 "$exe" "${args[@]}" > "$dir.log" 2>&1 || { echo -; return; }
  fi
  tools/trace "$dir/fxt" --steps 4 > "$dir/trace.txt" 2>&1 || { echo -; return; }
  rm -f "$dir"/fxt/paje.trace "$dir"/fxt/*.rec "$dir"/fxt/dag.dot  # large; the raw prof files stay
  python3 -c "import json, sys
t = json.load(open(sys.argv[1]))['transfers'][sys.argv[2]]['overlap_fraction']
print('-' if t is None else '%.2f' % t)" "$dir/fxt/trace_summary.json" "$([ "$mode" = ranks ] && echo mpi || echo memory_nodes)" \
    || echo -
}

mpdata() {  # GPUS NX NY NZ TX TY
  STARPU_NCPU=2 STARPU_NCUDA=$1 timeout 300 "$exe" bench mpdata --grid "$2x$3x$4" --tiles "$5x$6" --overlap on --steps 20 \
    --repeat 5 --direct off --json "$out/mpdata-$1-$2x$3.json" > "$out/mpdata-$1-$2x$3.log" 2>&1 || { echo nan; return; }
  python3 -c "import json,sys; print('%.3f' % json.load(open(sys.argv[1]))['ms_per_step'])" "$out/mpdata-$1-$2x$3.json"
}

# measure NAME ...: steady's arguments, run `repeat` times (NAME, NAME-r2, ...); prints the median
# ms/step, the median MB moved, and the range of the ms/step.
measure() {
  local name=$1 r runs=()
  shift
  for r in $(seq 1 "$repeat"); do
    runs+=("$(steady "$name$([ "$r" = 1 ] || echo "-r$r")" "$@")")
  done
  python3 -c "import statistics as st, sys
runs = [tuple(map(float, x.split())) for x in sys.argv[1:]]
ok = [r for r in runs if r[0] == r[0]]  # a failed run gives nan: left out (all failed: nan)
if not ok: print('nan nan nan nan')
else: print('%.3f %.1f %.3f %.3f' % (st.median(r[0] for r in ok), st.median(r[1] for r in ok), min(r[0] for r in ok), max(r[0] for r in ok)))" "${runs[@]}"
}

# The final velocity (and theta') of a run in one process and of the same run over ranks.
same_bits() {
  python3 - "$1/summary.json" "$2/summary.json" <<'PY' | tee -a "$table"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
keys = [k for k in ("velocity_checksum", "theta_checksum") if k in a]
same = all(a.get(k) == b.get(k) for k in keys) and keys
print("  %s: %s" % (", ".join(keys), "the same bits in one process and over ranks" if same else "DIFFER"))
PY
}
table=$out/scaling.txt
printf '%-15s %-8s %4s %-13s %-5s %9s %8s %10s %11s %6s %s\n' case mode GPUs grid tiles ms/step speed-up efficiency MB/step-moved \
  hidden "$([ "$repeat" -gt 1 ] && echo "ms/step range ($repeat runs)")" | tee "$table"
declare -A base
row() {  # CASE MODE KIND(weak|strong) GPUS GRID TILES MS [MB_MOVED [LO HI]]; the hidden share: $hid
  local key="$1/$3" eff sp
  [ "$4" = 1 ] && base[$key]=$7
  read -r sp eff < <(python3 -c "import sys
b, t, g, k = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
if t != t or b != b: print('nan nan')
elif k == 'weak': print('%.2f %.2f' % (g * b / t, b / t))
else: print('%.2f %.2f' % (b / t, b / t / g))" "${base[$key]:-nan}" "$7" "$4" "$3")
  printf '%-15s %-8s %4s %-13s %-5s %9s %8s %10s %11s %6s %s\n' "$1" "$2-$3" "$4" "$5" "$6" "$7" "$sp" "$eff" "${8:--}" \
    "${hid:--}" "$([ "$repeat" -gt 1 ] && [ -n "${9:-}" ] && echo "$9..${10}")" | tee -a "$table"
  hid=-
}
for g in $gpus; do
  [ "$g" -le "$have" ] || { echo "($g GPUs: the node has $have)" | tee -a "$table"; continue; }
  read -r tx ty <<< "$(layout "$g")"
  nx=$((px * tx)) ny=$((py * ty))
  for c in taylor_green thermal_bubble; do
    read -r ms mb lo hi < <(measure "$c-weak-$g" "$g" process "$c" $nx $ny "$pz" "$tx" "$ty")
    hid=$(hidden "$c-weak-$g" "$g" process "$c" $nx $ny "$pz" "$tx" "$ty")
    row "$c" process weak "$g" "${nx}x${ny}x$pz" "${tx}x$ty" "$ms" "$mb" "$lo" "$hi"
    if [ "$ranks" = on ] && [ "$g" -gt 1 ]; then
      read -r ms mb lo hi < <(measure "$c-ranks-$g" "$g" ranks "$c" $nx $ny "$pz" "$tx" "$ty")
      hid=$(hidden "$c-ranks-$g" "$g" ranks "$c" $nx $ny "$pz" "$tx" "$ty")
      row "$c" ranks weak "$g" "${nx}x${ny}x$pz" "${tx}x$ty" "$ms" "$mb" "$lo" "$hi"
      same_bits "$out/$c-weak-$g" "$out/$c-ranks-$g"
    fi
  done
  [ "$with_mpdata" = on ] && row mpdata process weak "$g" "${nx}x${ny}x$pz" "${tx}x$ty" "$(mpdata "$g" $nx $ny "$pz" "$tx" "$ty")"
  read -r ms mb lo hi < <(measure "tg-strong-$g" "$g" process taylor_green "$sx" "$sy" "$sz" "$tx" "$ty")
  hid=$(hidden "tg-strong-$g" "$g" process taylor_green "$sx" "$sy" "$sz" "$tx" "$ty")
  row taylor_green process strong "$g" "$strong" "${tx}x$ty" "$ms" "$mb" "$lo" "$hi"
done
