#!/usr/bin/env bash
# Two ranks of one CPU worker each against one rank of two workers on the same two cores (Taylor-
# Green 64^3, 1x2 tiles): prints the ratio of their ms/step (the scale-out issue's goal: at most 1.3)
# and the same bits. Fails on the pathologies measured before: ranks whose polling threads shared one
# core (23 times slower) and StarPU-MPI's progress thread spinning beside the workers (about 5 times:
# it yields now where a rank's threads outnumber its cores, graph/runtime/runtime.cpp); the bound
# leaves room for a loaded machine. Run it a few times for a figure (docs/performance.md, "Two ranks
# on CPUs").
# Usage: rank_overhead.sh TASKDYCORE_BINARY REPO_ROOT
set -eu
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader STARPU_FXT_TRACE=0
cores=$(/usr/bin/python3 -c 'import os; print(",".join(map(str, sorted(os.sched_getaffinity(0))[:2])))')
args=(run "$root/cases/taylor_green.toml" --set grid.nx=64 --set grid.ny=64 --set grid.nz=64 --set tiles.y=2
      --set time.steps=24 --set output.fields=false --set output.checkpoint=false)
taskset -c "$cores" env STARPU_NCPU=2 "$bin" "${args[@]}" --out "$tmp/one" > "$tmp/one.log" 2>&1 || { cat "$tmp/one.log"; exit 1; }
taskset -c "$cores" timeout 300 mpirun -np 2 --oversubscribe -x STARPU_NCPU=1 "$bin" "${args[@]}" --out "$tmp/two" > "$tmp/two.log" 2>&1 \
  || { echo "FAIL: two ranks did not finish"; cat "$tmp/two.log"; exit 1; }
/usr/bin/python3 - "$tmp" <<'PY'
import json, sys
one, two = (json.load(open(f"{sys.argv[1]}/{n}/summary.json")) for n in ("one", "two"))
ratio = two["ms_per_step"] / one["ms_per_step"]
steady = two["steady"]["ms_per_step"] / one["steady"]["ms_per_step"]  # without start-up
print(f"one rank, 2 workers: {one['ms_per_step']:.1f} ms/step; two ranks, 1 worker each: {two['ms_per_step']:.1f} ms/step; "
      f"ratio {ratio:.2f}, steady state {steady:.2f} (goal 1.3)")
assert one["velocity_checksum"] == two["velocity_checksum"], "two ranks give other bits"
assert ratio < 3, "two ranks are as slow as when their threads polled on the workers' cores"
PY
