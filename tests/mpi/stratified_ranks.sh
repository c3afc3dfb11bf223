#!/usr/bin/env bash
# The stratified step on 1 and 2 MPI ranks gives bitwise identical velocities: gravity waves with
# Coriolis, geostrophic wind and absorber, and the anelastic density current (mass-flux MPDATA and
# the density-weighted operator). Usage: stratified_ranks.sh TASKDYCORE_BINARY REPO_ROOT
set -eu
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
configs=(
  "waves $root/cases/inertia_gravity_waves.toml --set grid.nx=150 --set grid.nz=20 --set time.dt=20.0 --set time.steps=12 --set physics.coriolis=1e-4 --set physics.geostrophic_u=20.0 --set absorber.depth=2000.0 --set absorber.timescale=100.0"
  "current $root/cases/density_current.toml --set grid.nx=128 --set grid.nz=16 --set grid.ly=1600.0 --set time.dt=2.0 --set time.steps=16")
for config in "${configs[@]}"; do
  set -- $config; name=$1; shift
  for n in 1 2; do
    mpirun -np $n -x STARPU_NCPU=1 -x STARPU_FXT_TRACE=0 -x STARPU_SILENT=1 "$bin" run "$@" --set tiles.x=2 \
      --set output.fields=false --out "$tmp/${name}_np$n" > "$tmp/log" 2>&1 || { echo "$name: mpirun -np $n failed:"; cat "$tmp/log"; exit 1; }
  done
  /usr/bin/python3 - "$tmp" "$name" <<'PY'
import json, sys
a, b = (json.load(open(f"{sys.argv[1]}/{sys.argv[2]}_np{n}/summary.json")) for n in (1, 2))
assert a["ranks"] == 1 and b["ranks"] == 2
assert a["velocity_checksum"] == b["velocity_checksum"], f"{sys.argv[2]}: 2 ranks differ"
print(f"{sys.argv[2]}: 1 and 2 ranks bitwise identical ({a['velocity_checksum'][:16]}..)")
PY
done
