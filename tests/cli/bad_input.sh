#!/usr/bin/env bash
# Bad input: exit status 2, a message naming the key, and nothing written or overwritten.
# Usage: bad_input.sh TASKDYCORE_BINARY REPO_ROOT
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
case_file=$root/cases/translation.toml
failures=0; checks=0
expect_refusal() {  # KEY-THE-MESSAGE-MUST-NAME ARGS...
  local key=$1; shift
  local out=$tmp/out$checks
  checks=$((checks + 1))
  STARPU_FXT_TRACE=0 "$bin" run "$@" --out "$out" >"$tmp/stdout" 2>"$tmp/stderr"
  local rc=$?
  if [ $rc -ne 2 ]; then echo "FAIL ($*): exit status $rc, expected 2"; failures=$((failures + 1)); return; fi
  if ! grep -qF -- "$key" "$tmp/stderr"; then echo "FAIL ($*): message does not name '$key':"; cat "$tmp/stderr"; failures=$((failures + 1)); return; fi
  if [ -e "$out" ]; then echo "FAIL ($*): created $out"; failures=$((failures + 1)); return; fi
  echo "ok: $key -> $(head -c 160 "$tmp/stderr")"
}
printf '[grid]\nnx = 32\nnxx = 4\n' > "$tmp/typo.toml"
printf '[grid]\nnx = "lots"\n' > "$tmp/type.toml"
printf '[grid\nnx = 4\n' > "$tmp/syntax.toml"
expect_refusal "grid.nxx" "$tmp/typo.toml"
expect_refusal "grid.nx" "$tmp/type.toml"
expect_refusal "not valid TOML" "$tmp/syntax.toml"
expect_refusal "cannot open" "$tmp/missing.toml"
expect_refusal "grid.nx" "$case_file" --set grid.nx=-8
expect_refusal "tiles.x" "$case_file" --set tiles.x=3
expect_refusal "tiles.halo" "$case_file" --set tiles.halo=2
expect_refusal "time.dt" "$case_file" --set time.dt=0.05
expect_refusal "mpdata.iord" "$case_file" --set mpdata.iord=9
expect_refusal "an override must look like key=value" "$case_file" --set grid.nx
# The elliptic case: its own keys, and the combinations that cannot work.
ell=$root/cases/thin_shell_elliptic.toml
expect_refusal "solver.method" "$ell" --set shell.skew=1.0
expect_refusal "solver.restart" "$ell" --set solver.method=gcr --set solver.restart=9
expect_refusal "shell.omega2" "$ell" --set shell.omega2=-1
expect_refusal "solver.tol_rel" "$ell" --set solver.tol_rel=0
expect_refusal "unknown key" "$ell" --set flow.velocity=[1,0,0]
expect_refusal "case.kind" "$case_file" --set case.kind=climate
expect_refusal "physics.viscosity" "$root/cases/taylor_green.toml" --set physics.viscosity=5
expect_refusal "--restart" "$root/cases/taylor_green.toml" --restart "$tmp/none.h5"
expect_refusal "--restart" "$ell" --restart "$tmp/none.h5"

# An existing, non-empty output directory is never overwritten.
mkdir -p "$tmp/keep"; echo precious > "$tmp/keep/summary.json"
STARPU_FXT_TRACE=0 "$bin" run "$case_file" --out "$tmp/keep" >/dev/null 2>"$tmp/stderr"; rc=$?
checks=$((checks + 1))
if [ $rc -ne 2 ] || [ "$(cat "$tmp/keep/summary.json")" != precious ] || ! grep -q -- "--out" "$tmp/stderr"; then
  echo "FAIL: non-empty --out directory: status $rc"; failures=$((failures + 1))
else echo "ok: refuses to overwrite a non-empty output directory"; fi

# A bad run-time switch in the environment is bad input too: exit status 2, the variable named,
# nothing written.
for var in TASKDYCORE_PEER_COPY TASKDYCORE_FETCH_AHEAD TASKDYCORE_SEND_AHEAD TASKDYCORE_SPECTRAL_CHUNKS; do
  checks=$((checks + 1))
  env "$var=sometimes" "$bin" run "$case_file" --out "$tmp/env$checks" >/dev/null 2>"$tmp/stderr"; rc=$?
  if [ $rc -ne 2 ] || ! grep -qF "$var" "$tmp/stderr" || [ -e "$tmp/env$checks" ]; then
    echo "FAIL: $var=sometimes: status $rc"; cat "$tmp/stderr"; failures=$((failures + 1))
  else echo "ok: $var -> $(head -c 120 "$tmp/stderr")"; fi
done

# Usage errors exit 2 too.
"$bin" run >/dev/null 2>&1; rc=$?
checks=$((checks + 1))
if [ $rc -ne 2 ]; then echo "FAIL: missing case file: status $rc"; failures=$((failures + 1)); else echo "ok: usage error"; fi

echo "$((checks - failures)) passed, $failures failed"
[ $failures -eq 0 ]
