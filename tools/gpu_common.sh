# Sourced by tools/gpu_bench.sh on the device machine. Sets up the bundle's environment and a results
# folder ($res, packed into $OUT/results.tgz at exit, with the large field and checkpoint files left
# out), and defines the runners. Each keeps its log and JSON under $res and prints its key line:
#   bench NAME ENV... -- ARGS...           taskdycore bench mpdata ARGS    ($res/NAME.json)
#   bench_elliptic NAME ENV... -- ARGS...  taskdycore bench elliptic ARGS  ($res/NAME.json)
#   bench_reduction NAME ENV... -- ARGS... taskdycore bench reduction ARGS ($res/NAME.json)
#   run NAME ENV... -- ARGS...             taskdycore run ARGS             ($res/NAME/summary.json)
# They run ${TDC_EXE:-taskdycore} (an A/B's baseline sets TDC_EXE) under ${TDC_LAUNCH:-} (e.g. mpirun).
source "$1/env.sh"
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
res=/tmp/results; rm -rf "$res"; mkdir -p "$res"
export STARPU_HOME=/tmp/starpu-home STARPU_FXT_TRACE=0 STARPU_SILENT=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
trap 'find "$res" \( -name fields.h5 -o -name fields.xmf -o -name checkpoint.h5 \) -delete; tar czf "$OUT/results.tgz" -C "$res" .' EXIT
split_env() { envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift; rest=("$@"); }
bench() {
  local name=$1; shift; split_env "$@"
  env "${envs[@]}" timeout 240 ${TDC_LAUNCH:-} "${TDC_EXE:-taskdycore}" bench mpdata "${rest[@]}" --json "$res/$name.json" > "$res/$name.log" 2>&1
  echo "$name (exit $?): $(grep -E 'graph :|graph/direct|reaches' "$res/$name.log" | tr -s ' ' | tr '\n' ' ')"
}
bench_elliptic() {
  local name=$1; shift; split_env "$@"
  env "${envs[@]}" timeout 300 ${TDC_LAUNCH:-} "${TDC_EXE:-taskdycore}" bench elliptic "${rest[@]}" --json "$res/$name.json" > "$res/$name.log" 2>&1
  echo "$name (exit $?):"; grep -E '^  ' "$res/$name.log"
}
bench_reduction() {
  local name=$1; shift; split_env "$@"
  env "${envs[@]}" timeout 240 ${TDC_LAUNCH:-} "${TDC_EXE:-taskdycore}" bench reduction "${rest[@]}" --json "$res/$name.json" > "$res/$name.log" 2>&1
  echo "$name (exit $?): $(grep -E '^bench reduction' "$res/$name.log" | sed 's/.*repeats; //')"; grep -E '^  ' "$res/$name.log"
}
run() {
  local name=$1; shift; split_env "$@"
  env "${envs[@]}" timeout "${TDC_TIMEOUT:-240}" ${TDC_LAUNCH:-} "${TDC_EXE:-taskdycore}" run "${rest[@]}" --out "$res/$name" > "$res/$name.log" 2>&1
  echo "$name exit $? $(grep -E 'ms/step, ' "$res/$name.log" | tail -1) $(grep -h field_checksum "$res/$name/summary.json" 2>/dev/null)"
}
# One line per dynamical-core run: ms/step, Mcell/s, solver iterations, max |div|, and the bubble's
# validation (rise, theta' drift, energy budget, symmetry) or the Re = 1600 dissipation peak when present.
dycore_summary() {
  python3 - "$res" "$@" <<'PY'
import json, sys
r = sys.argv[1]
for n in sys.argv[2:]:
    try:
        s = json.load(open(f"{r}/{n}/summary.json")); v = s["validation"]; its = s["solver"]["iterations"]
        line = "%s ms/step %.2f Mcell/s %.1f its mean %.1f last %s converged %s max|div| %.3g" % (n, s["ms_per_step"], s["mcells_per_s"],
            sum(its) / max(1, len(its)), its[-3:], s["solver"]["converged_every_step"], v["max_divergence"])
        if "rise_height" in v:
            line += " z %.1f -> %.1f theta drift %.1e budget %.3g sym %.1e" % (v["rise_height"]["centroid_z"][0],
                v["rise_height"]["centroid_z"][-1], v["theta_relative_change_max"], v["energy_budget_error"],
                v["symmetry"]["theta_max_relative_asymmetry"])
        if "dissipation_peak" in v:
            p = v["dissipation_peak"]
            line += " peak -dE/dt %.5f at t %.2f (DNS 0.0127 near 9: %+.1f %%)" % (p["value"], p["time"], 100 * p["relative_difference"])
        print(line)
    except Exception as e:
        print(n, "failed", e)
PY
}
# Whether two results (bench JSON or run summary) carry the same checksums: CPU against GPU, or an
# A/B of two builds, which must not change a bit.
same_bits() {
  python3 - "$res" "$1" "$2" <<'PY'
import json, os, sys
def load(n):
    p = f"{sys.argv[1]}/{n}.json"
    return json.load(open(p if os.path.exists(p) else f"{sys.argv[1]}/{n}/summary.json"))
try:
    a, b = load(sys.argv[2]), load(sys.argv[3])
    keys = [k for k in a if k.endswith("checksum")]
    print(f"{sys.argv[2]} vs {sys.argv[3]}, same bits:", bool(keys) and all(a[k] == b.get(k) for k in keys), keys)
except Exception as e:
    print(f"{sys.argv[2]} vs {sys.argv[3]}: comparison failed:", e)
PY
}
