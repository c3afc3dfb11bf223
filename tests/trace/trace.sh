#!/usr/bin/env bash
# --trace records an FxT trace; tools/trace turns it into paje.trace, a summary and a Gantt chart.
# Usage: trace.sh TASKDYCORE_BINARY REPO_ROOT
set -eu
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" run "$root/cases/translation.toml" --out "$tmp/run" --trace "$tmp/trace" \
  --set grid.nx=32 --set grid.ny=32 --set grid.nz=8 --set time.steps=20 --set time.dt=0.004 > "$tmp/log" 2>&1 \
  || { cat "$tmp/log"; exit 1; }
"$root/tools/trace" "$tmp/trace" > "$tmp/summary.txt"
cat "$tmp/summary.txt"
for f in paje.trace gantt.png trace_summary.json; do test -s "$tmp/trace/$f" || { echo "missing $f"; exit 1; }; done
for c in mpdata_border mpdata_body halo_unpack halo_pack tile_moments; do
  grep -q "$c" "$tmp/summary.txt" || { echo "codelet $c missing from the summary"; exit 1; }
done
echo "1 passed, 0 failed"
