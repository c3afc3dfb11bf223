#!/usr/bin/env bash
# Confirms on the device machine that CPU+GPU (GPU-capable tasks kept on the GPU) is not slower than
# the GPU alone, with and without diagnostics, and with fewer CPU workers (core contention).
set -u
source "$1/env.sh"
res=/tmp/results; rm -rf "$res"; mkdir -p "$res"
export STARPU_HOME=/tmp/starpu-home STARPU_FXT_TRACE=0 STARPU_SILENT=1
trap 'tar czf "$OUT/results.tgz" -C "$res" .' EXIT
b() {  # NAME NCPU ARGS...
  local name=$1 ncpu=$2; shift 2
  STARPU_NCPU=$ncpu timeout 200 taskdycore bench mpdata --grid 256x256x256 --overlap off --steps 20 --repeat 5 --direct off \
    --warmup 10 "$@" --json "$res/$name.json" > "$res/$name.log" 2>&1
  echo "$name: $(grep 'graph :' "$res/$name.log")"
}
for t in 1x1 2x2; do
  for d in 0 1 10; do
    b gpu_${t}_d$d 0 --tiles $t --diagnostics $d
    b hybrid15_${t}_d$d 15 --tiles $t --diagnostics $d
  done
  b hybrid13_${t}_d0 13 --tiles $t
done
