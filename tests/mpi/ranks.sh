#!/usr/bin/env bash
# The same case on 1, 2 and 3 MPI ranks (tiles distributed in 2D blocks; every task through
# starpu_mpi_task_insert) must give bitwise identical fields and reductions.
# Usage: ranks.sh TASKDYCORE_BINARY REPO_ROOT
set -eu
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
args=(run "$root/cases/solid_body_rotation.toml" --set grid.nx=48 --set grid.ny=36 --set grid.nz=6
      --set tiles.x=4 --set tiles.y=3 --set time.dt=0.003 --set time.steps=40 --set output.interval=10)
for n in 1 2 3; do
  mpirun -np $n -x STARPU_NCPU=1 -x STARPU_FXT_TRACE=0 "$bin" "${args[@]}" --out "$tmp/np$n" > "$tmp/log$n" 2>&1 \
    || { echo "mpirun -np $n failed:"; cat "$tmp/log$n"; exit 1; }
done
/usr/bin/python3 - "$tmp" <<'PY'
import json, sys
runs = {n: json.load(open(f"{sys.argv[1]}/np{n}/summary.json")) for n in (1, 2, 3)}
for n, s in runs.items():
    print(f"np {n}: ranks {s['ranks']} checksum {s['field_checksum']} mass {s['validation']['mass_final']!r} "
          f"min {s['validation']['min']!r} max {s['validation']['max']!r}")
    assert s["ranks"] == n
ref = runs[1]
for n in (2, 3):
    for key in ("field_checksum",):
        assert runs[n][key] == ref[key], f"np {n}: {key} differs"
    for key in ("mass_final", "min", "max", "l2_error"):
        assert runs[n]["validation"][key] == ref["validation"][key], f"np {n}: {key} differs"
# Field records (written asynchronously from snapshots moved to rank 0) agree bit for bit too.
import h5py, numpy
with h5py.File(f"{sys.argv[1]}/np1/fields.h5") as f1:
    ref_fields = f1["psi"][:]
for n in (2, 3):
    with h5py.File(f"{sys.argv[1]}/np{n}/fields.h5") as f:
        assert f["psi"].shape == ref_fields.shape == (5, 6, 36, 48), f["psi"].shape
        assert numpy.array_equal(f["psi"][:], ref_fields), f"np {n}: field records differ"
print("3 passed, 0 failed")
PY
