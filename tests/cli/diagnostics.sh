#!/usr/bin/env bash
# Asynchronous diagnostics: one record per diagnostics.interval steps, the last equal to the final
# state's budgets, byte-identical time series for different tile layouts and rank counts, and a
# diagnostics.h5 that h5py and xarray read.
# Usage: diagnostics.sh TASKDYCORE_BINARY REPO_ROOT
set -eu
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export STARPU_FXT_TRACE=0 STARPU_SILENT=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
args=(run "$root/cases/deformational.toml" --set grid.nx=24 --set grid.ny=24 --set grid.nz=24 --set time.dt=0.0125
      --set flow.period=1.0 --set time.steps=80 --set diagnostics.interval=5 --set output.interval=0)
"$bin" "${args[@]}" --set tiles.x=1 --set tiles.y=1 --out a > log 2>&1 || { cat log; exit 1; }
"$bin" "${args[@]}" --set tiles.x=4 --set tiles.y=3 --out b > log 2>&1 || { cat log; exit 1; }
mpirun -np 2 -x STARPU_NCPU=1 "$bin" "${args[@]}" --set tiles.x=2 --set tiles.y=2 --out c > log 2>&1 || { cat log; exit 1; }
cmp a/diagnostics.csv b/diagnostics.csv
cmp a/diagnostics.csv c/diagnostics.csv
/usr/bin/python3 - a <<'PY'
import csv, json, sys
import h5py, xarray
d = sys.argv[1]
rows = list(csv.DictReader(open(f"{d}/diagnostics.csv")))
s = json.load(open(f"{d}/summary.json"))
assert [int(r["step"]) for r in rows] == list(range(0, 81, 5)), [r["step"] for r in rows]
last = rows[-1]
assert float(last["max"]) == s["validation"]["max"] and float(last["min"]) == s["validation"]["min"], (last, s["validation"])
assert max(abs(float(r["mass_rel_change"])) for r in rows) < 1e-12
with h5py.File(f"{d}/diagnostics.h5") as f:
    assert f["mass"].shape == (17,)
ds = xarray.open_dataset(f"{d}/diagnostics.h5", engine="netcdf4")
assert list(ds["mass"].dims) == ["step"] and ds.sizes["step"] == 17, ds
print(f"{len(rows)} records; identical for 1x1, 4x3 tiles and 2 ranks; last record = final state; h5py and xarray read diagnostics.h5")
print("1 passed, 0 failed")
PY
