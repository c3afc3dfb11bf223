# Sourced by the tools/gpu_*.sh scripts on the device machine: the bundle's environment, a results
# folder packed into $OUT/results.tgz at exit, and `bench NAME ENV... -- ARGS...` / `run NAME ENV... -- ARGS...`
# which run taskdycore (or $TDC_EXE, e.g. an earlier build carried in the bundle) with extra environment, keep the log and JSON, and print the key line.
source "$1/env.sh"
res=/tmp/results; rm -rf "$res"; mkdir -p "$res"
export STARPU_HOME=/tmp/starpu-home STARPU_FXT_TRACE=0 STARPU_SILENT=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
trap 'tar czf "$OUT/results.tgz" -C "$res" .' EXIT
split_env() { envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift; rest=("$@"); }
bench() {
  local name=$1; shift; split_env "$@"
  env "${envs[@]}" timeout 240 "${TDC_EXE:-taskdycore}" bench mpdata "${rest[@]}" --json "$res/$name.json" > "$res/$name.log" 2>&1
  echo "$name (exit $?): $(grep -E 'graph :|graph/direct|reaches' "$res/$name.log" | tr -s ' ' | tr '\n' ' ')"
}
bench_elliptic() {
  local name=$1; shift; split_env "$@"
  env "${envs[@]}" timeout 300 "${TDC_EXE:-taskdycore}" bench elliptic "${rest[@]}" --json "$res/$name.json" > "$res/$name.log" 2>&1
  echo "$name (exit $?):"; grep -E '^  ' "$res/$name.log"
}
run() {
  local name=$1; shift; split_env "$@"
  env "${envs[@]}" timeout 240 "${TDC_EXE:-taskdycore}" run "${rest[@]}" --out "$res/$name" > "$res/$name.log" 2>&1
  echo "$name exit $? $(grep -E 'ms/step, ' "$res/$name.log" | tail -1) $(grep -h field_checksum "$res/$name/summary.json" 2>/dev/null)"
}
tests() {
  timeout 240 test_kernels > "$res/test_kernels.txt" 2>&1; echo "kernel tests exit $?: $(grep -E '^\[  (PASSED|FAILED)' "$res/test_kernels.txt" | tr '\n' ' ')"
  timeout 240 test_csr_pcg > "$res/test_csr_pcg.txt" 2>&1; echo "csr tests exit $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$res/test_csr_pcg.txt" | tr '\n' ' ')"
  STARPU_NCPU=2 timeout 240 test_model > "$res/test_model.txt" 2>&1; echo "model tests exit $?: $(grep -E '^\[  (PASSED|FAILED)' "$res/test_model.txt" | tr '\n' ' ')"
}
# One line per dynamical-core run: ms/step, Mcell/s, solver iterations, max |div|, and the bubble's
# validation (rise, theta' drift, energy budget, symmetry) when present.
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
        print(line)
    except Exception as e:
        print(n, "failed", e)
PY
}
# Whether two runs' summaries carry the same checksums (an A/B of two builds must not change a bit).
same_bits() {
  python3 - "$res" "$1" "$2" <<'PY'
import json, sys
try:
    a, b = (json.load(open(f"{sys.argv[1]}/{n}/summary.json")) for n in sys.argv[2:4])
    keys = [k for k in a if k.endswith("checksum")]
    print(f"{sys.argv[2]} vs {sys.argv[3]}, same bits:", all(a[k] == b[k] for k in keys), keys)
except Exception as e:
    print("A/B checksum comparison failed:", e)
PY
}
