#!/usr/bin/env bash
# Performance checks on the device machine from a bundle (tools/make_bundle.sh): agreement tests,
# then `taskdycore bench mpdata` at 256^3 over tile counts, FCT on/off, overlap, kernel variants,
# CPU+GPU, and an Nsight Compute profile of the fused kernel. Results in $OUT/results.tgz.
# Usage (device machine, repo root): tools/gpu_bench.sh BUNDLE_DIR
set -u
bundle=$1
source "$bundle/env.sh"
res=/tmp/results; rm -rf "$res"; mkdir -p "$res"
export STARPU_HOME=/tmp/starpu-home STARPU_FXT_TRACE=0 STARPU_SILENT=1
finish() { tar czf "$OUT/results.tgz" -C "$res" . ; }
trap finish EXIT
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$res/gpu.txt"

echo "== agreement tests (CPU vs CUDA, fused and staged)"
timeout 240 test_kernels --gtest_filter='CpuCudaAgreement.*:FusedStep.*' > "$res/test_kernels.txt" 2>&1; echo "exit $?"
grep -E "^\[  (PASSED|FAILED)|Failure" "$res/test_kernels.txt" | head

bench() {  # NAME ENV... -- ARGS...
  local name=$1; shift
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" timeout 240 taskdycore bench mpdata "$@" --json "$res/$name.json" > "$res/$name.log" 2>&1
  echo "$name (exit $?): $(grep -E 'graph :|graph/direct|reaches' "$res/$name.log" | tr -s ' ' | tr '\n' ' ')"
}
g=(--grid 256x256x256 --steps 20 --repeat 5 --warmup 5)
echo "== GPU only, FCT on, tiles per GPU 1 2 4 8 16"
for t in 1x1 2x1 2x2 4x2 4x4; do bench gpu_fct_$t STARPU_NCPU=0 -- "${g[@]}" --tiles $t; done
echo "== variants at 1x1"
bench gpu_nofct_1x1 STARPU_NCPU=0 -- "${g[@]}" --fct off --tiles 1x1
bench gpu_fct_1x1_nooverlap STARPU_NCPU=0 -- "${g[@]}" --overlap off --tiles 1x1
bench gpu_fct_1x1_block32x4 STARPU_NCPU=0 TASKDYCORE_FUSED_BLOCK=32x4 -- "${g[@]}" --tiles 1x1
bench gpu_fct_1x1_staged STARPU_NCPU=0 TASKDYCORE_KERNEL=staged -- "${g[@]}" --tiles 1x1 --direct off
bench gpu_fct_512x512x128 STARPU_NCPU=0 -- --grid 512x512x128 --steps 20 --repeat 5 --warmup 5 --tiles 1x1
echo "== CPU + GPU (dmdas, calibrated during a long warm-up)"
bench hybrid_fct_4x4 STARPU_NCPU=15 -- --grid 256x256x256 --steps 20 --repeat 5 --warmup 40 --tiles 4x4 --direct off
bench hybrid_fct_2x2 STARPU_NCPU=15 -- --grid 256x256x256 --steps 20 --repeat 5 --warmup 40 --tiles 2x2 --direct off
bench cpu_only_fct_2x2 STARPU_NCUDA=0 STARPU_NCPU=16 -- --grid 256x256x256 --steps 4 --repeat 3 --warmup 2 --tiles 4x4 --direct off
echo "== Nsight Compute: fused kernel (FCT) at 256^3, one tile"
STARPU_NCPU=0 timeout 200 ncu --clock-control none --kernel-name regex:fused_kernel --launch-skip 4 --launch-count 2 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis \
  taskdycore bench mpdata --grid 256x256x256 --steps 2 --repeat 1 --warmup 2 --tiles 1x1 --overlap off --direct off \
  > "$res/ncu_fused.txt" 2>&1; echo "ncu exit $?"
grep -E "Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per|Compute \(SM\) Throughput|Theoretical Occupancy|Block Limit" "$res/ncu_fused.txt" | head -24
