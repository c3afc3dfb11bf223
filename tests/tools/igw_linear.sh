#!/usr/bin/env bash
# cases/inertia_gravity_waves.toml against tools/igw_linear.py's linear analytic solution: at 2 km x
# 500 m and at the standard 1 km x 250 m the relative L2 error of theta' lands where it was measured
# (docs/validation.md) and is written to summary.json; the error falls with resolution; another tile
# layout gives the same theta' bit for bit, and so does a restart half way; the script draws its PNG
# and refuses a run that is not a gravity wave. With the environment as the reference (theta_0(z) =
# theta_e(z)) and no wind, the model is the centred-difference linear solution of its own equations
# to 0.4 % (docs/validation.md), where the isentropic reference's solution misses it by 2.4 %.
# Usage: tests/tools/igw_linear.sh TASKDYCORE REPO_ROOT
set -u
exe=$1; root=$2
py=/usr/bin/python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export STARPU_NCPU=${STARPU_NCPU:-2} STARPU_SILENT=1 STARPU_FXT_TRACE=0
. "$(dirname "$0")/checks.sh"
case=$root/cases/inertia_gravity_waves.toml
coarse=(--set grid.nx=150 --set grid.nz=20 --set time.dt=20.0 --set time.steps=150)
"$exe" run "$case" "${coarse[@]}" --out "$tmp/c" > "$tmp/c.log" 2>&1 || fail "coarse run: $(tail -3 "$tmp/c.log")"
"$exe" run "$case" "${coarse[@]}" --set tiles.x=3 --out "$tmp/t" > "$tmp/t.log" 2>&1 || fail "tiled run"
"$exe" run "$case" --out "$tmp/s" > "$tmp/s.log" 2>&1 || fail "standard run: $(tail -3 "$tmp/s.log")"
$py "$root/tools/igw_linear.py" "$tmp/c" > "$tmp/c.txt" || fail "igw_linear coarse: $(cat "$tmp/c.txt")"
$py "$root/tools/igw_linear.py" "$tmp/s" --png "$tmp/s/igw.png" > "$tmp/s.txt" || fail "igw_linear standard"
cat "$tmp/c.txt" "$tmp/s.txt"
$py - "$tmp/c/summary.json" "$tmp/s/summary.json" <<'PY' && pass "rel L2 0.265 at 2 km (dt 20 s), 0.081 at 1 km (the case's dt 20 s) (measured), in summary.json" || fail "errors"
import json, sys
c, s = (json.load(open(p))["validation"] for p in sys.argv[1:3])
ec, es = c["linear_solution_rel_l2"], s["linear_solution_rel_l2"]
assert abs(ec - 0.265) < 0.01 and abs(es - 0.0812) < 0.005, (ec, es)
assert es < 0.5 * ec, (ec, es)
assert c["linear_solution_time_s"] == 3000.0 and s["max_divergence"] <= 1e-8, c
PY
[ -s "$tmp/s/igw.png" ] && pass "PNG drawn" || fail "no PNG"
# The centred differences' own dispersion at 1 km: 6.3 %, with fourth-order differences in x 0.7 %.
$py "$root/tools/igw_linear.py" "$tmp/s" --no-write --centred | grep -q "against the exact one: relative L2 error 6.25.*e-02; with fourth-order differences in x 7.1.*e-03" \
  && pass "dispersion of the centred differences: 6.25 %, fourth order in x 0.71 %" || fail "dispersion line"
$py - "$tmp/c/fields.h5" "$tmp/t/fields.h5" <<'PY' && pass "tiles 1x1 and 3x1: the same theta' and w bits" || fail "tile layouts differ"
import sys
import h5py, numpy as np
a, b = (h5py.File(p, "r") for p in sys.argv[1:3])
for name in ("theta", "w", "u", "p"):
    assert np.array_equal(np.asarray(a[name]), np.asarray(b[name])), name
PY
"$exe" run "$case" "${coarse[@]}" --set time.steps=75 --set output.checkpoint=true --out "$tmp/h" > /dev/null 2>&1 &&
  "$exe" run "$case" "${coarse[@]}" --restart "$tmp/h/checkpoint.h5" --out "$tmp/r" > /dev/null 2>&1 || fail "restart runs"
$py - "$tmp/c/summary.json" "$tmp/r/summary.json" <<'PY' && pass "a restart at step 75 ends on the same bits" || fail "restart differs"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["velocity_checksum"] == b["velocity_checksum"] and a["steps_done"] == b["steps_done"] == 150, (a["steps_done"], b["steps_done"])
PY
"$exe" run "$case" --set physics.reference='"environment"' --set environment.wind_u=0.0 --set time.dt=10.0 \
  --set time.steps=300 --out "$tmp/e" > /dev/null 2>&1 || fail "environment-reference run"
$py - "$root/tools/igw_linear.py" "$tmp/e" <<'PY' && pass "environment reference: its own linear solution to 0.4 % (centred)" || fail "environment reference"
import importlib.util, json, sys
import h5py, numpy as np
spec = importlib.util.spec_from_file_location("igw", sys.argv[1])
igw = importlib.util.module_from_spec(spec)
spec.loader.exec_module(igw)
s = json.load(open(sys.argv[2] + "/summary.json"))
with h5py.File(sys.argv[2] + "/fields.h5", "r") as f5:
    model = np.asarray(f5["theta"][-1]).mean(axis=1)
    x, z, t = np.asarray(f5["x"]), np.asarray(f5["z"]), float(f5["time"][-1])
env = s["environment"]
p = dict(s["gravity_wave"], gravity=s["buoyancy"]["gravity"], theta0=s["buoyancy"]["theta0"],
         brunt_vaisala=env["brunt_vaisala"], coriolis=env["coriolis"], wind_u=env["wind"][0])
err = {}
for ref in ("environment", "isentropic"):
    lin = igw.linear_theta(x, z, t, dict(p, reference=ref), centred=True)
    err[ref] = float(np.sqrt(np.sum((model - lin) ** 2) / np.sum(lin**2)))
assert env["reference"] == "environment" and err["environment"] < 0.006 and err["isentropic"] > 0.02, err
PY
"$exe" run "$root/cases/thermal_bubble.toml" --set grid.nx=16 --set grid.ny=16 --set grid.nz=16 --set time.steps=2 \
  --set solver.preconditioner='"line"' --out "$tmp/b" > /dev/null 2>&1
$py "$root/tools/igw_linear.py" "$tmp/b" > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && pass "a bubble run is refused (exit 2)" || fail "bubble run: exit $rc"
checks_done
