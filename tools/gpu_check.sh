#!/usr/bin/env bash
# Runs this session's GPU checks on the device machine from a bundle made by tools/make_bundle.sh:
# CPU/CUDA agreement tests, model tests with CUDA workers, CPU-vs-GPU bitwise run, 256^3 timings
# (GPU only, CPU+GPU) and a trace. Results go to $OUT/results.tgz plus a short table on stdout.
# Usage (on the device machine, repo root): tools/gpu_check.sh BUNDLE_DIR
set -u
bundle=$1
source "$bundle/env.sh"
res=/tmp/results; rm -rf "$res"; mkdir -p "$res"
export STARPU_HOME=/tmp/starpu-home STARPU_FXT_TRACE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
step() { echo "== $*"; }
finish() { tar czf "$OUT/results.tgz" -C "$res" . ; }
trap finish EXIT

step "device"; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$res/gpu.txt"
nproc | tee -a "$res/gpu.txt"
step "info"; timeout 120 taskdycore info > "$res/info.txt" 2>&1; tail -8 "$res/info.txt"

step "kernel tests (CPU/CUDA agreement)"
timeout 300 test_kernels > "$res/test_kernels.txt" 2>&1; echo "exit $?"; grep -E "PASSED|FAILED|SKIPPED" "$res/test_kernels.txt" | head

step "model tests with CUDA workers"
STARPU_NCPU=2 timeout 300 test_model > "$res/test_model.txt" 2>&1; echo "exit $?"; grep -E "^\[  (PASSED|FAILED)|iord=|donor" "$res/test_model.txt" | head

run() {  # NAME ENV... -- ARGS...
  local name=$1; shift
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" timeout 300 taskdycore run "$@" --out "$res/$name" > "$res/$name.log" 2>&1
  echo "$name exit $? $(grep -E 'ms/step, ' "$res/$name.log" | tail -1)"
}
step "CPU vs GPU, bitwise (deformational 64^3, 96 steps)"
small=(cases/deformational.toml --set time.steps=96 --set output.interval=0)
run cpu_only STARPU_NCUDA=0 STARPU_NCPU=8 -- "${small[@]}"
run gpu_only STARPU_NCPU=0 -- "${small[@]}"
run hybrid_small STARPU_NCPU=8 -- "${small[@]}"
grep -h field_checksum "$res"/{cpu_only,gpu_only,hybrid_small}/summary.json

big=(cases/solid_body_rotation.toml --set grid.nx=256 --set grid.ny=256 --set grid.nz=256 --set time.dt=0.00055
     --set time.steps=100 --set output.interval=0 --set grid.z_boundary=periodic)
step "256^3 GPU only, tiles 1x1 and 2x2"
run g256_1x1 STARPU_NCPU=0 -- "${big[@]}" --set tiles.x=1 --set tiles.y=1
run g256_2x2 STARPU_NCPU=0 -- "${big[@]}" --set tiles.x=2 --set tiles.y=2
step "256^3 CPU+GPU (dmdas; first run calibrates, second is measured)"
run h256_cal STARPU_NCPU=15 -- "${big[@]}" --set tiles.x=4 --set tiles.y=4 --set time.steps=40
run h256 STARPU_NCPU=15 -- "${big[@]}" --set tiles.x=4 --set tiles.y=4
run g256_4x4 STARPU_NCPU=0 -- "${big[@]}" --set tiles.x=4 --set tiles.y=4
step "trace of a GPU run"
STARPU_NCPU=0 timeout 200 taskdycore run "${big[@]}" --set time.steps=10 --set tiles.x=2 --set tiles.y=2 \
  --out "$res/traced" --trace "$res/trace" > "$res/traced.log" 2>&1; echo "traced exit $?"; ls -la "$res/trace" | head
for d in "$res"/*/summary.json; do rm -f "$(dirname "$d")/fields.h5" "$(dirname "$d")/fields.xmf"; done
