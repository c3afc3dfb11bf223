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
# --steps N: the last N steps of a dycore run on two tiles (a step: the advector tasks submitted
# together), and where the workers waited, charged to the task that ended each wait.
"$bin" run "$root/cases/taylor_green.toml" --out "$tmp/tg" --trace "$tmp/tgtrace" --set grid.nx=32 --set grid.ny=32 \
  --set grid.nz=16 --set tiles.y=2 --set time.steps=8 --set output.fields=false --set output.checkpoint=false \
  > "$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
"$root/tools/trace" "$tmp/tgtrace" --steps 3 > "$tmp/steps.txt"
grep -q "Per step: .* (3 steps)" "$tmp/steps.txt" || { cat "$tmp/steps.txt"; echo "no per-step line"; exit 1; }
grep -q "Idle, charged to the task that ended it" "$tmp/steps.txt" || { cat "$tmp/steps.txt"; echo "no idle table"; exit 1; }
python3 - "$tmp/tgtrace/trace_summary.json" <<'PY' || exit 1
import json, sys
s = json.load(open(sys.argv[1]))
adv = [c for c in s["codelets"] if c["name"] == "advector"]
# two tiles: two advector tasks a step in a window of 3 steps
assert adv and adv[0]["count"] == 6, adv
idle = s["idle"]
assert idle["workers"] >= 1, idle
# each wait split at the task's ready time (sched_tasks.rec's push): dependency + data = the wait
for name, ms in idle["by_next_task_ms"].items():
    if name in idle["waiting_for_dependency_ms"]:
        both = idle["waiting_for_dependency_ms"][name] + idle["waiting_for_data_ms"][name]
        assert abs(both - ms) < 1e-9, (name, both, ms)
assert idle["waiting_for_dependency_ms"], idle
# the host submits ahead of the workers: a lead for each of the window's advectors
lead = s["host_lead"]
assert lead and lead[0]["tasks"] == 6 and lead[0]["min_ms"] >= 0, lead
PY
head -1 "$tmp/tgtrace/window_tasks.csv" | grep -q "^rank,worker,codelet,job,ready_ms,start_ms,end_ms" \
  || { echo "no window_tasks.csv"; exit 1; }
# tools/trace_gantt.py draws the window from those CSV files alone (as from a GPU node's).
if /usr/bin/python3 -c "import matplotlib" 2> /dev/null; then
  /usr/bin/python3 "$root/tools/trace_gantt.py" "$tmp/tgtrace/window_tasks.csv" --png "$tmp/w.png" > /dev/null \
    && test -s "$tmp/w.png" || { echo "trace_gantt.py drew nothing"; exit 1; }
fi
echo "3 passed, 0 failed"
