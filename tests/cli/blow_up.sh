#!/usr/bin/env bash
# A flow that blows up (a 3000 K bubble) stops early with exit status 3 and a summary that says so:
# `aborted` names the step, `validation.finite` is false and no check built on a maximum passes.
# Usage: blow_up.sh TASKDYCORE_BINARY REPO_ROOT
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
STARPU_FXT_TRACE=0 "$bin" run "$root/cases/thermal_bubble.toml" --set grid.nx=32 --set grid.ny=32 --set grid.nz=32 \
  --set bubble.amplitude=3000 --set time.steps=60 --out "$tmp/run" > "$tmp/log" 2>&1
status=$?
[ $status -eq 3 ] || { echo "FAIL: exit status $status, not 3"; cat "$tmp/log"; exit 1; }
grep -q 'unstable at step' "$tmp/log" || { echo "FAIL: no message"; cat "$tmp/log"; exit 1; }
/usr/bin/python3 - "$tmp/run/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
v = s["validation"]
print("stopped at step", s["steps_done"], "of", s["steps"], "-", s["aborted"])
assert s["steps_done"] < s["steps"], "ran to the end"
assert "aborted" in s
assert v["finite"] is False and v["divergence_below_tolerance"] is False and v["kinetic_energy_never_grows"] is False, v
PY
