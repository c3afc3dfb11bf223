#!/usr/bin/env bash
# Performance and correctness checks on the device machine from a bundle (tools/make_bundle.sh):
# agreement and model tests, CPU-vs-GPU bitwise runs, `taskdycore bench mpdata` at 256^3 over tile
# counts, FCT on/off, overlap, kernel variants and CPU+GPU, and a trace. Results in $OUT/results.tgz.
# Usage (device machine, repo root): tools/gpu_bench.sh BUNDLE_DIR
set -u
bundle=$1
source "$bundle/env.sh"
res=/tmp/results; rm -rf "$res"; mkdir -p "$res"
export STARPU_HOME=/tmp/starpu-home STARPU_FXT_TRACE=0 STARPU_SILENT=1
finish() { tar czf "$OUT/results.tgz" -C "$res" . ; }
trap finish EXIT
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$res/gpu.txt"

echo "== tests: CPU vs CUDA agreement (every kernel, fused and staged), model with CUDA workers"
timeout 240 test_kernels > "$res/test_kernels.txt" 2>&1; echo "kernels exit $?: $(grep -E '^\[  (PASSED|FAILED)' "$res/test_kernels.txt" | tr '\n' ' ')"
STARPU_NCPU=2 timeout 240 test_model > "$res/test_model.txt" 2>&1; echo "model exit $?: $(grep -E '^\[  (PASSED|FAILED)' "$res/test_model.txt" | tr '\n' ' ')"

run() {  # NAME ENV... -- ARGS...
  local name=$1; shift
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" timeout 200 taskdycore run "$@" --out "$res/$name" > "$res/$name.log" 2>&1
  echo "$name exit $? $(grep -E 'ms/step, ' "$res/$name.log" | tail -1) $(grep -h field_checksum "$res/$name/summary.json")"
}
echo "== CPU vs GPU vs CPU+GPU, bitwise (deformational 64^3, 96 steps)"
small=(cases/deformational.toml --set time.steps=96 --set output.interval=0)
run cpu_only STARPU_NCUDA=0 STARPU_NCPU=8 -- "${small[@]}"
run gpu_only STARPU_NCPU=0 -- "${small[@]}"
run hybrid_small STARPU_NCPU=8 -- "${small[@]}"

bench() {  # NAME ENV... -- ARGS...
  local name=$1; shift
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" timeout 200 taskdycore bench mpdata "$@" --json "$res/$name.json" > "$res/$name.log" 2>&1
  echo "$name (exit $?): $(grep -E 'graph :|graph/direct|reaches' "$res/$name.log" | tr -s ' ' | tr '\n' ' ')"
}
g=(--grid 256x256x256 --steps 20 --repeat 5 --warmup 5)
echo "== GPU only, staged kernels, FCT on: tiles per GPU 1 2 4 8 16, overlap on/off"
for t in 1x1 2x1 2x2 4x2 4x4; do bench gpu_fct_$t STARPU_NCPU=0 -- "${g[@]}" --tiles $t; done
for t in 1x1 2x2 4x4; do bench gpu_fct_${t}_nooverlap STARPU_NCPU=0 -- "${g[@]}" --tiles $t --overlap off; done
echo "== variants"
bench gpu_nofct_1x1_nooverlap STARPU_NCPU=0 -- "${g[@]}" --fct off --tiles 1x1 --overlap off
bench gpu_fct_1x1_nooverlap_fused STARPU_NCPU=0 TASKDYCORE_KERNEL=fused -- "${g[@]}" --tiles 1x1 --overlap off
bench gpu_fct_512x512x128_nooverlap STARPU_NCPU=0 -- --grid 512x512x128 --steps 20 --repeat 5 --warmup 5 --tiles 1x1 --overlap off
echo "== CPU + GPU (dmdas, calibrated during a long warm-up) vs GPU alone at the same tiling"
for t in 2x2 4x4; do
  bench hybrid_fct_${t}_nooverlap STARPU_NCPU=15 -- --grid 256x256x256 --steps 20 --repeat 5 --warmup 60 --tiles $t --overlap off --direct off
done
bench cpu_only_fct_4x4 STARPU_NCUDA=0 STARPU_NCPU=16 -- --grid 256x256x256 --steps 4 --repeat 3 --warmup 2 --tiles 4x4 --overlap off --direct off
echo "== trace of a GPU run (256^3, 2x2 tiles, 10 steps)"
STARPU_NCPU=0 timeout 200 taskdycore run cases/solid_body_rotation.toml --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 \
  --set time.dt=0.00055 --set time.steps=10 --set output.interval=0 --set grid.z_boundary=periodic --set tiles.x=2 --set tiles.y=2 \
  --out "$res/traced" --trace "$res/trace" > "$res/traced.log" 2>&1; echo "traced exit $?"
for d in "$res"/*/summary.json; do rm -f "$(dirname "$d")/fields.h5" "$(dirname "$d")/fields.xmf"; done
