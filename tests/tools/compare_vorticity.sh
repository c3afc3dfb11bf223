#!/usr/bin/env bash
# tools/compare_vorticity.py on real dynamical-core output: two Taylor-Green runs that differ only in
# their tile layout give zero norms at every shared record (the model is bitwise tile-independent);
# a run with another scheme (donor cell) gives non-zero norms; files without a shared time are refused.
# Usage: tests/tools/compare_vorticity.sh TASKDYCORE REPO_ROOT
set -u
exe=$1; root=$2
py=/usr/bin/python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export STARPU_NCPU=${STARPU_NCPU:-2} STARPU_SILENT=1 STARPU_FXT_TRACE=0
. "$(dirname "$0")/checks.sh"
small=(--set grid.nx=16 --set grid.ny=16 --set grid.nz=16 --set time.dt=0.08 --set time.steps=4
       --set diagnostics.interval=2 --set output.fields_interval=2 --set case.initial='"taylor_green_modified"')
"$exe" run "$root/cases/taylor_green.toml" "${small[@]}" --out "$tmp/a" > "$tmp/a.log" 2>&1 || fail "run a"
"$exe" run "$root/cases/taylor_green.toml" "${small[@]}" --set tiles.x=2 --set tiles.y=2 --out "$tmp/b" > "$tmp/b.log" 2>&1 || fail "run b"
"$exe" run "$root/cases/taylor_green.toml" "${small[@]}" --set mpdata.iord=1 --out "$tmp/c" > "$tmp/c.log" 2>&1 || fail "run c"
"$exe" run "$root/cases/taylor_green.toml" "${small[@]}" --set time.dt=0.07 --out "$tmp/d" > "$tmp/d.log" 2>&1 || fail "run d"

$py "$root/tools/compare_vorticity.py" "$tmp/a/fields.h5" "$tmp/b/fields.h5" --json "$tmp/ab.json" > "$tmp/ab.txt" || fail "compare a b"
$py - "$tmp/ab.json" <<'PY' && pass "tile layouts: zero norms at t = 0, 0.16, 0.32" || fail "tile layouts: $(cat "$tmp/ab.txt")"
import json, sys
rows = json.load(open(sys.argv[1]))
assert [round(r["time"], 6) for r in rows] == [0.0, 0.16, 0.32], rows
assert all(r["l1"] == 0 and r["l2"] == 0 and r["max_abs_difference"] == 0 for r in rows), rows
assert all(r["mean_vorticity"] > 0.1 for r in rows), rows
PY
$py "$root/tools/compare_vorticity.py" "$tmp/a/fields.h5" "$tmp/c/fields.h5" --json "$tmp/ac.json" > "$tmp/ac.txt" || fail "compare a c"
$py - "$tmp/ac.json" <<'PY' && pass "donor cell vs MPDATA: non-zero norms after the first step" || fail "schemes: $(cat "$tmp/ac.txt")"
import json, sys
rows = json.load(open(sys.argv[1]))
assert rows[0]["l1"] == 0 and rows[-1]["l1"] > 1e-6 and rows[-1]["l2"] >= rows[-1]["l1"], rows
assert abs(rows[-1]["linf_eq6"] * 16**3 - rows[-1]["max_abs_difference"]) < 1e-12 * rows[-1]["max_abs_difference"]
PY
out=$($py "$root/tools/compare_vorticity.py" "$tmp/c/fields.h5" <(echo) 2>&1); rc=$?
[ $rc -ne 0 ] && pass "a missing/unreadable file fails (exit $rc)" || fail "unreadable file accepted: $out"
# d has records at 0, 0.14, 0.28: only t = 0 is shared.
$py "$root/tools/compare_vorticity.py" "$tmp/a/fields.h5" "$tmp/d/fields.h5" --json "$tmp/ad.json" > /dev/null &&
  $py -c "import json,sys; r=json.load(open(sys.argv[1])); assert len(r)==1 and r[0]['time']==0" "$tmp/ad.json" &&
  pass "only shared record times are compared" || fail "record matching"
checks_done
