#!/usr/bin/env bash
# ParaView opens a run's fields.xmf and sees the HDF5 data (skipped, status 77, without pvbatch).
# Usage: paraview.sh TASKDYCORE_BINARY REPO_ROOT
set -eu
bin=$1; root=$2
command -v pvbatch >/dev/null || { echo "pvbatch not installed: ParaView check skipped (apt-get install paraview)"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
STARPU_FXT_TRACE=0 STARPU_SILENT=1 "$bin" run "$root/cases/translation.toml" --out "$tmp/run" --set grid.nx=16 --set grid.ny=12 \
  --set grid.nz=8 --set time.steps=20 --set time.dt=0.004 --set output.interval=5 > "$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
pvbatch "$root/tests/io/check_paraview.py" "$tmp/run/fields.xmf" "$tmp/run/fields.h5" psi 2>&1 | grep -v "^$"
