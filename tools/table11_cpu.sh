#!/bin/bash
# Paper 000 Table XI at 128^3, CPU half: 2 CPU workers, 2x1 tiles (about 18 min on the 2-core VM).
# Usage: tools/table11_cpu.sh --out DIR; compare the field_records velocity_checksum of DIR/summary.json
# with the GPU half (tools/gpu_bench.sh BUNDLE dycore: run dycore_table11_128).
cd "$(dirname "$0")/.."
export STARPU_NCPU=2 STARPU_NCUDA=0 STARPU_SILENT=1 STARPU_HOME=${STARPU_HOME:-/tmp/starpu-home-t11}
exec "${TASKDYCORE:-build/taskdycore}" run cases/taylor_green.toml --set case.initial='"taylor_green_modified"' \
  --set grid.nx=128 --set grid.ny=128 --set grid.nz=128 --set time.dt=0.01 --set time.steps=400 \
  --set output.fields_interval=200 --set output.checkpoint_interval=50 --set diagnostics.interval=50 \
  --set solver.method=pcg --set solver.max_iter=300 --set tiles.x=2 --set tiles.y=1 "$@"
