#!/usr/bin/env bash
# Two ranks of one CPU worker each against one rank of two workers on the same two cores: Taylor-Green
# 64^3 (1x2 tiles, the default case otherwise), steady-state ms/step (the difference of an N- and a
# 2N-step run, over N), alternating the launches round by round, and the ratio of the medians (issue
# goal: at most 1.3). CPU workers only. Both launches must give the same velocity bits.
#
#   tools/ranks_vs_workers.sh [--exe EXE] [--steps N] [--rounds R] [--cpus 0,1]
set -euo pipefail
exe=build/taskdycore steps=20 rounds=3 cpus=0,1
while [ $# -gt 0 ]; do
  case $1 in
    --exe) exe=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    *) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
[ -x "$exe" ] || exe=$(command -v "$exe") || { echo "ranks_vs_workers: no program $exe (--exe)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
args=(run cases/taylor_green.toml --set output.fields=false --set output.checkpoint=false --set tiles.x=1 --set tiles.y=2 --force)
run() {  # MODE STEPS: the run's total ms (steps x ms/step) and velocity checksum
  local dir="$out/$1-$2"
  if [ "$1" = one ]; then
    STARPU_NCUDA=0 STARPU_NCPU=2 taskset -c "$cpus" timeout 600 "$exe" "${args[@]}" --set time.steps="$2" --out "$dir" > "$dir.log" 2>&1
  else
    taskset -c "$cpus" timeout 600 mpirun -np 2 -x STARPU_NCPU=1 -x STARPU_NCUDA=0 "$exe" "${args[@]}" --set time.steps="$2" --out "$dir" > "$dir.log" 2>&1
  fi
  python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(s['ms_per_step'] * s['steps_this_run'], s['velocity_checksum'])" "$dir/summary.json"
}
declare -A times sums
for r in $(seq "$rounds"); do
  for mode in one two; do
    read -r t1 _ < <(run "$mode" "$steps")
    read -r t2 c < <(run "$mode" $((2 * steps)))
    ms=$(python3 -c "import sys; print('%.2f' % ((float(sys.argv[2]) - float(sys.argv[1])) / int(sys.argv[3])))" "$t1" "$t2" "$steps")
    times[$mode]="${times[$mode]:-} $ms"; sums[$mode]=$c
    echo "round $r: $([ "$mode" = one ] && echo '1 rank, 2 workers ' || echo '2 ranks, 1 worker each') $ms ms/step"
  done
done
python3 - "${times[one]}" "${times[two]}" <<'PY'
import statistics, sys
one, two = (statistics.median(map(float, a.split())) for a in sys.argv[1:3])
print(f"median: 1 rank {one:.2f}, 2 ranks {two:.2f} ms/step; ratio {two / one:.2f} (goal <= 1.3)")
PY
[ "${sums[one]}" = "${sums[two]}" ] && echo "same velocity bits: yes" || { echo "same velocity bits: NO"; exit 1; }
