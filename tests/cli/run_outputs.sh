#!/usr/bin/env bash
# A small real run: summary.json has the promised figures, fields.h5 opens in h5py and xarray with
# one record per output interval plus the first and last, and the .xmf sidecar names each record.
# Usage: run_outputs.sh TASKDYCORE_BINARY REPO_ROOT
set -eu
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
STARPU_FXT_TRACE=0 "$bin" run "$root/cases/deformational.toml" --out "$tmp/run" \
  --set grid.nx=24 --set grid.ny=24 --set grid.nz=24 --set time.dt=0.0125 --set time.steps=80 \
  --set flow.period=1.0 --set output.interval=20 > "$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
grep -q "output in" "$tmp/log"
/usr/bin/python3 - "$tmp/run/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for key in ["case", "grid", "tiles", "ranks", "workers", "steps", "ms_per_step", "mcells_per_s", "validation", "field_checksum"]:
    assert key in s, f"summary.json lacks {key}"
for key in ["mass_rel_change", "min", "max", "l2_error"]:
    assert key in s["validation"], f"validation lacks {key}"
assert s["validation"]["mass_rel_change"] < 1e-12, s["validation"]
assert s["ms_per_step"] > 0 and s["mcells_per_s"] > 0
print("summary.json ok:", {k: s[k] for k in ["ms_per_step", "mcells_per_s"]}, s["validation"]["l2_error"])
PY
/usr/bin/python3 "$root/tests/io/check_readers.py" "$tmp/run/fields.h5" 24 24 24 5
# The records are written asynchronously: the last one must be exactly the final state.
/usr/bin/python3 - "$tmp/run" <<'PY'
import json, sys, h5py
s = json.load(open(sys.argv[1] + "/summary.json"))
with h5py.File(sys.argv[1] + "/fields.h5") as f:
    last = f["psi"][-1]
    assert float(last.min()) == s["validation"]["min"] and float(last.max()) == s["validation"]["max"], (last.min(), last.max(), s["validation"])
    assert list(f["time"][:]) == [0.0, 0.25, 0.5, 0.75, 1.0], f["time"][:]
print("last record == final state; record times in order")
PY
grep -c "<Grid Name=" "$tmp/run/fields.xmf" >/dev/null
echo "1 passed, 0 failed"
