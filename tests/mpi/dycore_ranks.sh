#!/usr/bin/env bash
# The NFT dynamical core (Taylor-Green) on 1, 2 and 3 MPI ranks must give bitwise identical
# velocities and diagnostics. Usage: dycore_ranks.sh TASKDYCORE_BINARY REPO_ROOT
set -eu
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
# Four solvers: GCR with line solves on an uneven grid, and PCG, GCR and the direct solve with the
# spectral inverse (its transposes across tiles owned by different ranks) on a power-of-two grid.
configs=(
  "gcr --set solver.method=gcr --set solver.preconditioner=line --set grid.nx=48 --set grid.ny=36 --set tiles.x=4 --set tiles.y=3"
  "spectral --set solver.method=pcg --set grid.nx=32 --set grid.ny=32 --set tiles.x=4 --set tiles.y=2"
  "direct --set solver.method=direct --set grid.nx=32 --set grid.ny=32 --set tiles.x=1 --set tiles.y=4"
  "gcr_spectral --set solver.method=gcr --set grid.nx=32 --set grid.ny=32 --set tiles.x=2 --set tiles.y=4")
for config in "${configs[@]}"; do
  set -- $config; name=$1; shift
  for n in 1 2 3; do
    mpirun -np $n -x STARPU_NCPU=1 -x STARPU_FXT_TRACE=0 -x STARPU_SILENT=1 "$bin" run "$root/cases/taylor_green.toml" \
      --set grid.nz=8 --set time.dt=0.04 --set time.steps=6 --set diagnostics.interval=3 --set solver.max_iter=40 \
      "$@" --out "$tmp/${name}_np$n" > "$tmp/log" 2>&1 || { echo "$name: mpirun -np $n failed:"; cat "$tmp/log"; exit 1; }
  done
  /usr/bin/python3 - "$tmp" "$name" <<'PY'
import json, sys
runs = {n: json.load(open(f"{sys.argv[1]}/{sys.argv[2]}_np{n}/summary.json")) for n in (1, 2, 3)}
ref = runs[1]
for n, s in runs.items():
    v = s["validation"]
    print(f"{sys.argv[2]} np {n}: solver iterations {s['solver']['iterations']} velocity {s['velocity_checksum'][:16]}.. KE {v['kinetic_energy']['value'][-1]!r} max|div| {v['max_divergence']:.3g}")
    assert s["ranks"] == n
    assert s["velocity_checksum"] == ref["velocity_checksum"], f"np {n}: velocity differs"
    assert v["kinetic_energy"] == ref["validation"]["kinetic_energy"], f"np {n}: kinetic energy differs"
    assert v["divergence_below_tolerance"], f"np {n}: divergence above tolerance"
print(f"{sys.argv[2]}: 1, 2, 3 ranks: bitwise identical")
PY
done
