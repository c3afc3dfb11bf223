#!/usr/bin/env bash
# A first run says only taskdycore's own lines: the default case (at a small size) and `info` print
# no StarPU message unless asked (--verbose), even with a fresh, uncalibrated perf-model home; and
# the performance models live in the cache, not in the user's home.
# Usage: quiet_run.sh TASKDYCORE_BINARY REPO_ROOT
set -eu
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
unset STARPU_SILENT STARPU_HOME
export XDG_CACHE_HOME=$tmp/cache HOME=$tmp/home
mkdir -p "$HOME"
small=(--set grid.nx=16 --set grid.ny=16 --set grid.nz=16 --set time.steps=4)
"$bin" run "$root/cases/taylor_green.toml" "${small[@]}" --out "$tmp/run" > "$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
n=$(grep -c '^\[starpu' "$tmp/log" || true)
[ "$n" -eq 0 ] || { echo "FAIL: $n StarPU lines in a default run:"; cat "$tmp/log"; exit 1; }
grep -q 'calibrating performance models' "$tmp/log" || { echo "FAIL: no calibration notice on a fresh cache"; cat "$tmp/log"; exit 1; }
[ -d "$tmp/cache/taskdycore/calibration" ] || { echo "FAIL: no calibration home under the cache"; exit 1; }
[ ! -e "$HOME/.starpu" ] || { echo "FAIL: StarPU wrote into the user's home"; exit 1; }
echo "default run: $(wc -l < "$tmp/log") lines, none from StarPU"
# A second run reuses the calibration and does not announce it again.
"$bin" run "$root/cases/taylor_green.toml" "${small[@]}" --out "$tmp/run2" > "$tmp/log2" 2>&1 || { cat "$tmp/log2"; exit 1; }
! grep -q 'calibrating' "$tmp/log2" || { echo "FAIL: calibration announced twice"; cat "$tmp/log2"; exit 1; }
"$bin" info > "$tmp/info" 2>&1 || { cat "$tmp/info"; exit 1; }
n=$(grep -c '^\[starpu' "$tmp/info" || true)
[ "$n" -eq 0 ] || { echo "FAIL: $n StarPU lines in info:"; cat "$tmp/info"; exit 1; }
grep -q '^StarPU 1\.4\.' "$tmp/info" || { echo "FAIL: info does not report StarPU 1.4"; cat "$tmp/info"; exit 1; }
grep -q 'bound to CPU\|not bound' "$tmp/info" || { echo "FAIL: info does not say where workers run"; cat "$tmp/info"; exit 1; }
# calibrate: a short run of the case, quiet too, its scratch output removed.
TMPDIR=$tmp "$bin" calibrate "$root/cases/taylor_green.toml" "${small[@]}" > "$tmp/calibrate" 2>&1 || { cat "$tmp/calibrate"; exit 1; }
! grep -q '^\[starpu' "$tmp/calibrate" || { echo "FAIL: StarPU lines in calibrate"; cat "$tmp/calibrate"; exit 1; }
grep -q 'performance models calibrated on 12 steps' "$tmp/calibrate" || { echo "FAIL: calibrate"; cat "$tmp/calibrate"; exit 1; }
! ls -d "$tmp"/taskdycore-calibrate-* 2>/dev/null || { echo "FAIL: calibrate left its scratch output"; exit 1; }
# --verbose lets StarPU speak (its start-up is not silent when it calibrates the bus afresh).
rm -rf "$tmp/cache"
"$bin" info --verbose > "$tmp/verbose" 2>&1 || { cat "$tmp/verbose"; exit 1; }
grep -q '^\[starpu' "$tmp/verbose" || { echo "FAIL: --verbose shows no StarPU line"; cat "$tmp/verbose"; exit 1; }
echo "info: quiet by default, StarPU's lines with --verbose"
