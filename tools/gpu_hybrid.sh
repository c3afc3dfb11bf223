#!/usr/bin/env bash
# CPU+GPU on the device machine (bundle from tools/make_bundle.sh): GPU alone vs 15 CPU + 1 GPU
# workers with step tasks kept on the GPU (default) and with dmdas free to place them on CPUs
# (--cpu-steps on); and the diagnostics overhead when CPU workers are present.
# Usage (device machine, repo root): tools/gpu_hybrid.sh BUNDLE_DIR
set -u
source "$1/env.sh"
res=/tmp/results; rm -rf "$res"; mkdir -p "$res"
export STARPU_HOME=/tmp/starpu-home STARPU_FXT_TRACE=0 STARPU_SILENT=1
trap 'tar czf "$OUT/results.tgz" -C "$res" .' EXIT
b() {  # NAME NCPU ARGS...
  local name=$1 ncpu=$2; shift 2
  STARPU_NCPU=$ncpu timeout 200 taskdycore bench mpdata --grid 256x256x256 --overlap off --steps 20 --repeat 5 --direct off \
    "$@" --json "$res/$name.json" > "$res/$name.log" 2>&1
  echo "$name: $(grep 'graph :' "$res/$name.log")"
}
for t in 1x1 2x2 4x4; do
  b gpu_$t 0 --tiles $t --warmup 5
  b hybrid_$t 15 --tiles $t --warmup 40
  b hybrid_cpusteps_$t 15 --tiles $t --warmup 40 --cpu-steps on
done
for d in 0 1 10; do b diag${d}_hybrid 15 --tiles 1x1 --warmup 10 --diagnostics $d; done
for d in 0 1 10; do b diag${d}_hybrid_4x4 15 --tiles 4x4 --warmup 10 --diagnostics $d; done
