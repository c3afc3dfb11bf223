#!/usr/bin/env bash
# Checkpoint/restart of the dynamical core: N steps straight == N/2 + restart + N/2 bit for bit
# (velocity, every field record, diagnostics.csv byte for byte), for the thermal bubble (GCR, lids,
# theta') and the modified Taylor-Green flow (PCG, periodic, start-up projection, extrapolated first
# guess: p^(n-1) checkpointed too), with other tiles
# and on 2 ranks; SIGINT and kill -9 leave checkpoints that resume to the straight answer; unusable
# restart files are refused with exit 2, the key named and nothing written; h5py, xarray and the
# field-file checker read the outputs.
# Usage: dycore_restart.sh TASKDYCORE_BINARY REPO_ROOT
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export STARPU_FXT_TRACE=0 STARPU_SILENT=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
# mpirun turns SIGINT into SIGCONT to the ranks (which they take as the stop request), SIGTERM
# odls_base_sigkill_timeout s later and SIGKILL as long again: 3 s leaves a loaded machine time for
# the last step and the checkpoint, and mpirun returns about 5 s after the signal (README, "Restart").
export OMPI_MCA_odls_base_sigkill_timeout=3
passed=0; failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
run() { "$bin" run "$@" > log 2>&1 || { echo "run failed: $*"; cat log; exit 1; }; }
# The final velocity and every field record's velocity, by step.
state() { /usr/bin/python3 -c "
import json, sys
s = json.load(open(sys.argv[1] + '/summary.json'))
print(s['velocity_checksum'], s['steps_done'], {r['step']: r['velocity_checksum'][:16] for r in s['field_records']})" "$1"; }
# Two runs agree: same final velocity, same field records where both have one, same diagnostics.csv.
same() {  # A B WHAT
  if /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(f"{d}/summary.json")) for d in sys.argv[1:3])
ra = {r["step"]: r["velocity_checksum"] for r in a["field_records"]}
rb = {r["step"]: r["velocity_checksum"] for r in b["field_records"]}
common = sorted(set(ra) & set(rb))
assert a["velocity_checksum"] == b["velocity_checksum"], "final velocity differs"
assert common and all(ra[s] == rb[s] for s in common), f"field records differ at {[s for s in common if ra[s] != rb[s]]}"
assert a["validation"] == b["validation"], "validation differs"
PY
  then cmp -s "$1/diagnostics.csv" "$2/diagnostics.csv" && ok "$3" || fail "$3: diagnostics.csv differs"
  else fail "$3"; fi
}

bubble=("$root/cases/thermal_bubble.toml" --set grid.nx=16 --set grid.ny=16 --set grid.nz=16 --set time.dt=4 --set solver.max_iter=12
        --set diagnostics.interval=4 --set output.fields_interval=8)
run "${bubble[@]}" --set time.steps=24 --out b_straight
run "${bubble[@]}" --set time.steps=12 --out b_half
run "${bubble[@]}" --set time.steps=24 --set tiles.x=2 --set tiles.y=2 --restart b_half/checkpoint.h5 --out b_resumed
same b_straight b_resumed "bubble: 24 steps == 12 + restart (2x2 tiles) + 12: $(state b_resumed)"
mpirun -np 2 -x STARPU_NCPU=1 "$bin" run "${bubble[@]}" --set time.steps=24 --set tiles.x=2 \
  --restart b_half/checkpoint.h5 --out b_np2 > log 2>&1 || { cat log; exit 1; }
same b_straight b_np2 "bubble: 1-rank checkpoint resumed on 2 ranks"
mpirun -np 2 -x STARPU_NCPU=1 "$bin" run "${bubble[@]}" --set time.steps=12 --set tiles.x=2 --out b_half_np2 > log 2>&1 \
  || { cat log; exit 1; }
run "${bubble[@]}" --set time.steps=24 --restart b_half_np2/checkpoint.h5 --out b_from_np2
same b_straight b_from_np2 "bubble: 2-rank checkpoint resumed on 1 rank"

tg=("$root/cases/taylor_green.toml" --set case.initial=taylor_green_modified --set solver.method=pcg --set solver.first_guess=extrapolated
    --set grid.nx=16 --set grid.ny=16 --set grid.nz=16 --set time.dt=0.05 --set diagnostics.interval=5
    --set output.fields_interval=10)
run "${tg[@]}" --set time.steps=30 --out t_straight
run "${tg[@]}" --set time.steps=15 --out t_half
run "${tg[@]}" --set time.steps=30 --set tiles.x=4 --restart t_half/checkpoint.h5 --out t_resumed
same t_straight t_resumed "modified Taylor-Green (PCG): 30 steps == 15 + restart (4x1 tiles) + 15"
# The steady step time is timed over the run's last three quarters (at least 4 steps in), a resumed
# run's own steps only.
/usr/bin/python3 - <<'PY' || { echo "FAIL: summary.json's steady step time"; exit 1; }
import json
for run, first in (("t_straight", 7), ("t_resumed", 19), ("b_half", 4)):
    s = json.load(open(f"{run}/summary.json"))["steady"]
    assert s["from_step"] == first and s["ms_per_step"] > 0, (run, s)
print("steady step times: ok")
PY

# The outputs open in the usual readers.
if /usr/bin/python3 - b_straight <<'PY'
import csv, sys
import h5py, xarray
d = sys.argv[1]
rows = list(csv.DictReader(open(f"{d}/diagnostics.csv")))
assert [int(r["step"]) for r in rows] == list(range(0, 25, 4)), [r["step"] for r in rows]
with h5py.File(f"{d}/diagnostics.h5") as f:
    assert f["theta_centroid_z"].shape == (7,)
    assert list(f["kinetic_energy"][...]) == [float(r["kinetic_energy"]) for r in rows]
with h5py.File(f"{d}/checkpoint.h5") as f:
    assert f.attrs["step"] == 24 and f["theta"].shape == (16, 16, 16) and f["series/step"].shape == (7,)
ds = xarray.open_dataset(f"{d}/diagnostics.h5", engine="netcdf4")
assert list(ds["max_divergence"].dims) == ["step"] and ds.sizes["step"] == 7
PY
then ok "diagnostics.csv, diagnostics.h5 (h5py, xarray) and checkpoint.h5 (h5py) agree"
else fail "diagnostics files"; fi
/usr/bin/python3 "$root/tests/io/check_readers.py" b_straight/fields.h5 16 16 16 4 > readers.log 2>&1 \
  && ok "fields.h5 (u, v, w, p, theta; 4 records written asynchronously): h5py, xarray and XDMF" \
  || { fail "fields.h5 readers"; cat readers.log; }

# Unusable restart files: exit 2, the key named, nothing written.
"$bin" run "$root/cases/deformational.toml" --set grid.nx=16 --set grid.ny=16 --set grid.nz=16 --set time.steps=2 \
  --out advection > log 2>&1 || { cat log; exit 1; }
refuse() {  # KEY FILE ARGS...
  local key=$1 file=$2; shift 2
  "$bin" run "$@" --restart "$file" --out refused > out.txt 2> err.txt
  local rc=$?
  if [ $rc -eq 2 ] && grep -qF -- "$key" err.txt && [ ! -e refused ]; then ok "refused ($key): $(head -c 150 err.txt)"
  else fail "expected refusal naming $key, got status $rc: $(cat err.txt)"; fi
}
refuse grid.nx b_half/checkpoint.h5 "${bubble[@]}" --set time.steps=24 --set grid.nx=32
refuse time.dt b_half/checkpoint.h5 "${bubble[@]}" --set time.steps=24 --set time.dt=2
refuse bubble.amplitude b_half/checkpoint.h5 "${bubble[@]}" --set time.steps=24 --set bubble.amplitude=1
refuse case.initial t_half/checkpoint.h5 "${tg[@]}" --set time.steps=30 --set case.initial=taylor_green
refuse solver.method t_half/checkpoint.h5 "${tg[@]}" --set time.steps=30 --set solver.method=gcr --set solver.preconditioner=line
refuse time.steps b_half/checkpoint.h5 "${bubble[@]}" --set time.steps=12
refuse case.kind advection/checkpoint.h5 "${bubble[@]}" --set time.steps=24
refuse "not a taskdycore checkpoint" b_straight/fields.h5 "${bubble[@]}" --set time.steps=24
head -c 3000 b_half/checkpoint.h5 > truncated.h5; refuse --restart truncated.h5 "${bubble[@]}" --set time.steps=24
refuse --restart missing.h5 "${bubble[@]}" --set time.steps=24

# A checkpoint resumed to step END equals a straight run to END (velocity, validation, diagnostics.csv).
resumes() {  # CHECKPOINT END NAME
  run "${bubble[@]}" --set time.steps=$2 --set output.fields=false --out $3_straight
  run "${bubble[@]}" --set time.steps=$2 --set output.fields=false --restart "$1" --out $3_resumed
  /usr/bin/python3 -c "import json,sys; a,b=(json.load(open(d+'/summary.json')) for d in sys.argv[1:]); assert a['velocity_checksum']==b['velocity_checksum'] and a['validation']==b['validation']" $3_straight $3_resumed \
    && cmp -s $3_straight/diagnostics.csv $3_resumed/diagnostics.csv
}

# SIGINT mid-run: exit 130 with a checkpoint of the step reached; resumed to 8 steps later it equals
# a straight run of that many steps.
long=("${bubble[@]}" --set time.steps=100000 --set output.fields=false)
"$bin" run "${long[@]}" --out interrupted > int.log 2>&1 &
pid=$!
for _ in $(seq 600); do grep -q "^step 8 " int.log 2>/dev/null && break; sleep 0.1; done
kill -INT $pid; wait $pid; rc=$?
at=$(grep -o 'after step [0-9]*' int.log | grep -o '[0-9]*$')
if [ $rc -eq 130 ] && [ -n "$at" ] && [ -s interrupted/checkpoint.h5 ]; then
  end=$(( (at / 4 + 2) * 4 ))
  resumes interrupted/checkpoint.h5 $end s && ok "SIGINT after step $at (exit 130), resumed to step $end: same as straight" || fail "resumed after SIGINT differs"
else fail "SIGINT: status $rc (expected 130), stopped at '$at'"; cat int.log; fi

# SIGINT to mpirun on 2 ranks: the ranks agree on the stop and write one checkpoint.
mpirun -np 2 -x STARPU_NCPU=1 "$bin" run "${long[@]}" --set tiles.x=2 --out interrupted_np2 > int2.log 2>&1 &
pid=$!
for _ in $(seq 600); do grep -q "^step 8 " int2.log 2>/dev/null && break; sleep 0.1; done
kill -INT $pid; wait $pid
at=$(grep -o 'after step [0-9]*' int2.log | grep -o '[0-9]*$')
if grep -q "interrupted; resume" int2.log && [ -n "$at" ] && [ -s interrupted_np2/checkpoint.h5 ]; then
  end=$(( (at / 4 + 2) * 4 ))
  resumes interrupted_np2/checkpoint.h5 $end s2 && ok "SIGINT on 2 ranks after step $at, resumed on 1 to step $end: same as straight" || fail "resumed after 2-rank SIGINT differs"
else fail "2-rank SIGINT did not stop with a checkpoint"; cat int2.log; fi

# kill -9 while checkpoints are written every 8 steps: the last complete one resumes correctly.
"$bin" run "${long[@]}" --set output.checkpoint_interval=8 --out killed > kill.log 2>&1 &
pid=$!
for _ in $(seq 1200); do [ -s killed/checkpoint.h5 ] && break; sleep 0.05; done
sleep 0.3; kill -KILL $pid; wait $pid 2>/dev/null
at=$(/usr/bin/python3 -c "import h5py; print(int(h5py.File('killed/checkpoint.h5').attrs['step']))" 2>/dev/null)
if [ -n "$at" ]; then
  resumes killed/checkpoint.h5 $((at + 8)) k && ok "after kill -9 the checkpoint of step $at resumes to the straight answer" || fail "resumed after kill -9 differs"
else fail "no usable checkpoint after kill -9"; cat kill.log; fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
