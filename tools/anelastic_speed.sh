#!/usr/bin/env bash
# Issue 29's speed goal: a 256^3 anelastic bubble in a stratified atmosphere on one GPU within 1.3x of
# the Boussinesq bubble at 256^3 (cases/thermal_bubble.toml, time.dt = 0.5 s, 40 steps, the GPU
# worker alone: STARPU_NCPU=0).
#   Boussinesq: the case as it is (neutral, rho_0 = 1, the direct solve: the spectral inverse applied
#               once a step).
#   anelastic:  physics.equations = "anelastic" (rho_0(z) the isentrope of theta_0 = 300 K, MPDATA
#               with G = rho_0) in environment.profile = "constant_n", N = 0.01 1/s, PCG with the
#               multigrid preconditioner, or the one TDC_ANELASTIC_PRECONDITIONER names ("spectral":
#               the exact inverse with its direct vertical solve, applied once a step; the line
#               preconditioner needs ~70 iterations a step on a cubic grid).
# Usage (from the repository root, on a GPU machine): tools/anelastic_speed.sh [TASKDYCORE]
#   TASKDYCORE defaults to build/taskdycore (with tools/make_bundle.sh's bundle: source bundle/env.sh,
#   then pass taskdycore). Output under ${OUT:-/tmp}/anelastic_speed; prints both ms/step, their
#   iterations and the ratio. Extra settings for both runs: TDC_SPEED_SET="--set grid.nx=32 ...".
set -euo pipefail
exe=${1:-build/taskdycore}
out=${OUT:-/tmp}/anelastic_speed
mkdir -p "$out"
common=(cases/thermal_bubble.toml --set grid.nx=256 --set grid.ny=256 --set grid.nz=256
        --set time.dt=0.5 --set time.steps=40
        --set output.fields=false --set output.checkpoint=false --set diagnostics.interval=20)
# shellcheck disable=SC2206  # word splitting of the extra settings is wanted
extra=(${TDC_SPEED_SET:-})
precon=${TDC_ANELASTIC_PRECONDITIONER:-multigrid}
method=pcg; [ "$precon" = spectral ] && method=direct  # the exact inverse applied once, as the Boussinesq case
anelastic=(--set physics.equations='"anelastic"' --set environment.profile='"constant_n"'
           --set environment.brunt_vaisala=0.01
           --set solver.preconditioner="\"$precon\"" --set solver.method="\"$method\"")
export STARPU_NCPU=${STARPU_NCPU-0}
"$exe" run "${common[@]}" "${extra[@]}" --out "$out/boussinesq" > "$out/boussinesq.log" 2>&1 ||
  { echo "Boussinesq run failed (exit $?): $out/boussinesq.log" >&2; tail -5 "$out/boussinesq.log" >&2; exit 1; }
"$exe" run "${common[@]}" "${extra[@]}" "${anelastic[@]}" --out "$out/anelastic" > "$out/anelastic.log" 2>&1 ||
  { echo "anelastic run failed (exit $?): $out/anelastic.log" >&2; tail -5 "$out/anelastic.log" >&2; exit 1; }
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
ms = {}
for name in ("boussinesq", "anelastic"):
    s = json.load(open(f"{out}/{name}/summary.json"))
    its = s["solver"]["iterations"]
    ms[name] = s["ms_per_step"]
    g, w = s["grid"], s["workers"]
    print("%-10s %dx%dx%d, %d CPU + %d CUDA workers: %.3f ms/step, %.1f Mcell/s, PCG its (sampled) %s, "
          "converged every step %s, max div %.3g" % (name, g["nx"], g["ny"], g["nz"], w["cpu"], w["cuda"],
          s["ms_per_step"], s["mcells_per_s"], its, s["solver"]["converged_every_step"],
          s["validation"]["max_divergence"]))
print("anelastic / Boussinesq: %.3f (goal <= 1.3)" % (ms["anelastic"] / ms["boussinesq"]))
PY
