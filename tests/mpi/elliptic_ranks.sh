#!/usr/bin/env bash
# The elliptic solvers on 1, 2 and 3 MPI ranks (tiles in 2D blocks, partial sums combined in tile
# order on the rank that owns the solver state) must give bitwise identical iteration histories and
# solutions. Usage: elliptic_ranks.sh TASKDYCORE_BINARY REPO_ROOT
set -eu
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
for method in pcg-fused pcg-unfused gcr; do
  case $method in
    pcg-fused) m=(--set solver.method=pcg) ;;
    pcg-unfused) m=(--set solver.method=pcg --set solver.fused=false) ;;
    gcr) m=(--set solver.method=gcr --set solver.restart=3 --set shell.skew=10.0) ;;
  esac
  for n in 1 2 3; do
    mpirun -np $n -x STARPU_NCPU=1 -x STARPU_FXT_TRACE=0 -x STARPU_SILENT=1 "$bin" run \
      "$root/cases/thin_shell_elliptic.toml" --set grid.nx=48 --set grid.ny=36 --set grid.nz=12 \
      --set tiles.x=4 --set tiles.y=3 --set shell.rhs=random --set solver.tol_rel=1e-9 --set output.fields=false \
      "${m[@]}" --out "$tmp/$method-np$n" > "$tmp/log" 2>&1 || { echo "mpirun -np $n ($method) failed:"; cat "$tmp/log"; exit 1; }
  done
done
/usr/bin/python3 - "$tmp" <<'PY'
import json, sys
for method in ("pcg-fused", "pcg-unfused", "gcr"):
    runs = {n: json.load(open(f"{sys.argv[1]}/{method}-np{n}/summary.json")) for n in (1, 2, 3)}
    ref = runs[1]
    assert ref["solver"]["converged"], method
    for n, s in runs.items():
        assert s["ranks"] == n
        h = s["solver"]["residual_history"]
        print(f"{method} np {n}: {s['solver']['iterations']} iterations, final {h[-1]!r}, solution {s['solution_checksum']}")
        assert h == ref["solver"]["residual_history"], f"{method} np {n}: residual history differs"
        assert s["solution_checksum"] == ref["solution_checksum"], f"{method} np {n}: solution differs"
print("3 methods x 3 rank counts: bitwise identical")
PY
