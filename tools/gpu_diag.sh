#!/usr/bin/env bash
# Diagnostics overhead on the device machine (bundle from tools/make_bundle.sh): agreement tests,
# then bench mpdata at 256^3 with asynchronous diagnostics every step, every 10 steps, and none.
# Usage (device machine, repo root): tools/gpu_diag.sh BUNDLE_DIR
set -u
source "$1/env.sh"
res=/tmp/results; rm -rf "$res"; mkdir -p "$res"
export STARPU_HOME=/tmp/starpu-home STARPU_FXT_TRACE=0 STARPU_SILENT=1
trap 'tar czf "$OUT/results.tgz" -C "$res" .' EXIT
timeout 240 test_kernels > "$res/test_kernels.txt" 2>&1; echo "kernels exit $?: $(grep -E '^\[  (PASSED|FAILED)' "$res/test_kernels.txt" | tr '\n' ' ')"
STARPU_NCPU=2 timeout 240 test_model > "$res/test_model.txt" 2>&1; echo "model exit $?: $(grep -E '^\[  (PASSED|FAILED)' "$res/test_model.txt" | tr '\n' ' ')"
for round in 1 2; do
  for d in 0 1 10; do
    STARPU_NCPU=0 timeout 200 taskdycore bench mpdata --grid 256x256x256 --tiles 1x1 --overlap off --steps 20 --repeat 7 \
      --warmup 5 --direct off --diagnostics $d --json "$res/diag${d}_r$round.json" > "$res/diag${d}_r$round.log" 2>&1
    echo "round $round diagnostics every $d: $(grep 'graph :' "$res/diag${d}_r$round.log")"
  done
done
