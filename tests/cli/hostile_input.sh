#!/usr/bin/env bash
# Bad and hostile input, one case a line: each must end with exit status 2 (3 for usage errors of
# CLI11 is not used: those are 2 as well), a message naming the key or option, nothing written (the
# --out directory is not created) and nothing overwritten.
# Usage: hostile_input.sh TASKDYCORE_BINARY REPO_ROOT
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
export STARPU_FXT_TRACE=0
tr=$root/cases/translation.toml rot=$root/cases/solid_body_rotation.toml def=$root/cases/deformational.toml
tg=$root/cases/taylor_green.toml tb=$root/cases/thermal_bubble.toml ell=$root/cases/thin_shell_elliptic.toml
failures=0; checks=0
fail() { echo "FAIL ($1): $2"; failures=$((failures + 1)); }

# refuse KEY CASE-AND-ARGS...: `taskdycore run` must exit 2 naming KEY, and write nothing.
refuse() {
  local key=$1; shift
  local out=$tmp/out$checks
  checks=$((checks + 1))
  timeout 120 "$bin" run "$@" --out "$out" >"$tmp/stdout" 2>"$tmp/stderr"
  local rc=$?
  if [ $rc -ne 2 ]; then fail "$key: $*" "exit status $rc, expected 2: $(head -c 300 "$tmp/stderr")"; return; fi
  if ! grep -qF -- "$key" "$tmp/stderr"; then fail "$key: $*" "message does not name '$key': $(head -c 300 "$tmp/stderr")"; return; fi
  if [ -e "$out" ]; then fail "$key: $*" "created $out"; return; fi
  if grep -q $'\e' "$tmp/stderr" "$tmp/stdout"; then fail "$key: $*" "echoed an escape code"; return; fi
  echo "ok $checks: $key -> $(head -c 150 "$tmp/stderr" | tr -d '\n')"
}
# refuse_cmd KEY ARGS...: any command line, exit 2 naming KEY.
refuse_cmd() {
  local key=$1; shift
  checks=$((checks + 1))
  timeout 120 "$bin" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
  local rc=$?
  if [ $rc -ne 2 ]; then fail "$key: $*" "exit status $rc, expected 2: $(head -c 300 "$tmp/stderr")"; return; fi
  if ! grep -qF -- "$key" "$tmp/stderr"; then fail "$key: $*" "message does not name '$key': $(head -c 300 "$tmp/stderr")"; return; fi
  echo "ok $checks: $key -> $(head -c 150 "$tmp/stderr" | tr -d '\n')"
}

# --- 4: integers are range-checked as 64-bit values before narrowing (no wrap at 2^32)
refuse grid.nx "$tr" --set grid.nx=4294967328
refuse grid.ny "$tr" --set grid.ny=4294967360
refuse grid.nz "$tr" --set grid.nz=-4294967264
refuse time.steps "$tr" --set time.steps=2147483648
refuse time.steps "$tr" --set time.steps=4294967297
refuse mpdata.iord "$tr" --set mpdata.iord=4294967298
refuse tiles.x "$tr" --set tiles.x=4294967298
refuse tiles.y "$tr" --set tiles.y=-1
refuse tiles.halo "$tr" --set tiles.halo=4294967299
refuse output.interval "$tr" --set output.interval=9223372036854775807
refuse diagnostics.interval "$tr" --set diagnostics.interval=-9223372036854775808
refuse solver.max_iter "$tg" --set solver.max_iter=4294967396
refuse solver.restart "$ell" --set solver.method=gcr --set solver.restart=4294967299
refuse grid.nx "$tr" --set grid.nx=99999999999999999999
# --- 5: nan and inf are refused, naming the key
refuse flow.velocity "$tr" --set 'flow.velocity=[nan,0,0]'
refuse flow.velocity "$tr" --set 'flow.velocity=[1,inf,0]'
refuse initial.amplitude "$tr" --set initial.amplitude=nan
refuse initial.background "$tr" --set initial.background=-inf
refuse initial.radius "$tr" --set initial.radius=+nan
refuse initial.center "$tr" --set 'initial.center=[0.5,nan,0.5]'
refuse grid.lx "$tr" --set grid.lx=inf
refuse grid.lz "$tr" --set grid.lz=1e400
refuse time.dt "$tr" --set time.dt=nan
refuse time.dt "$tg" --set time.dt=inf
refuse flow.omega "$rot" --set flow.omega=nan
refuse flow.center "$rot" --set 'flow.center=[inf,0.5]'
refuse flow.period "$def" --set flow.period=inf
refuse density.scale_height "$rot" --set density.scale_height=nan
refuse output.progress_seconds "$tr" --set output.progress_seconds=inf
refuse case.velocity "$tg" --set case.velocity=nan
refuse physics.viscosity "$tg" --set physics.viscosity=nan
refuse physics.gravity "$tb" --set physics.gravity=-inf
refuse bubble.amplitude "$tb" --set bubble.amplitude=nan
refuse time.max_courant "$tg" --set time.max_courant=nan
refuse solver.divergence_tolerance "$tg" --set solver.divergence_tolerance=inf
refuse shell.omega2 "$ell" --set shell.omega2=nan
refuse solver.tol_rel "$ell" --set solver.tol_rel=inf
# --- 8: empty, comment-only, binary and non-regular case files
: > "$tmp/empty.toml"
printf '# only a comment\n\n   # another\n' > "$tmp/comments.toml"
printf '\0\0\0\0' > "$tmp/nul.toml"
head -c 2000000 /dev/zero | tr '\0' '#' > "$tmp/huge.toml"
mkdir -p "$tmp/adir"
refuse "sets no keys" "$tmp/empty.toml"
refuse "sets no keys" "$tmp/comments.toml"
refuse "sets no keys" "$tmp/empty.toml" --set time.steps=5
refuse "not valid TOML" "$tmp/nul.toml"
refuse "not a regular file" /dev/zero
refuse "not a regular file" /dev/null
refuse "is a directory" "$tmp/adir"
refuse "larger than 1 MiB" "$tmp/huge.toml"
refuse "cannot open" "$tmp/no-such-case.toml"
# --- 9: case.name cannot leave runs/, make folders or carry control codes
refuse case.name "$tr" --set 'case.name=../..'
refuse case.name "$tr" --set 'case.name=a/b'
refuse case.name "$tr" --set 'case.name=/'
refuse case.name "$tr" --set 'case.name=".hidden"'
refuse case.name "$tr" --set 'case.name=""'
refuse case.name "$tr" --set 'case.name="\u001b[31mred"'
refuse case.name "$tr" --set "case.name=$(printf 'x%.0s' $(seq 1 80))"
refuse case.name "$tr" --set 'case.name=12'
# --- 10: sizes are checked against memory and index range before anything is allocated
mem_gib=$(awk '/MemTotal/ {print int($2 / 1048576)}' /proc/meminfo)
if [ "$mem_gib" -lt 60 ]; then  # 1024^3 needs at least 64 GiB for an advection run
  refuse grid.nx "$tr" --set grid.nx=1024 --set grid.ny=1024 --set grid.nz=1024 --set tiles.x=1 --set tiles.y=1
else
  refuse grid.nx "$tr" --set grid.nx=2048 --set grid.ny=1024 --set grid.nz=1024 --set tiles.x=1 --set tiles.y=1
fi
refuse grid.nx "$tg" --set grid.nx=1280 --set grid.ny=1280 --set grid.nz=1280
refuse grid.nx "$tr" --set grid.nx=100000 --set grid.ny=100000 --set grid.nz=32 --set tiles.x=1 --set tiles.y=1
refuse grid.nx "$tr" --set grid.nx=100000000 --set tiles.x=1
refuse grid.nx "$tg" --set grid.nx=2048 --set grid.ny=2048 --set grid.nz=512
refuse grid.nx "$ell" --set grid.nx=65536 --set grid.ny=65536
# --- 11: options and overrides
refuse time.steps "$tr" --set 'time.steps=5
x = 1'
refuse time.steps "$tr" --set $'time.steps=5\ngrid.nx=2'
refuse time.steps "$tr" --set $'time.steps=5\r'
refuse flow.omega "$tr" --set flow.omega=1.0
refuse flow.center "$tr" --set 'flow.center=[0.5,0.5]'
refuse flow.period "$rot" --set flow.period=2.0
refuse flow.velocity "$def" --set 'flow.velocity=[1,0,0]'
refuse solver.fused "$tb" --set solver.method=gcr --set solver.fused=false
refuse bubble.radius "$tg" --set bubble.radius=100.0
refuse solver.multigrid_levels "$tg" --set solver.multigrid_levels=2
refuse "an override must look like key=value" "$tr" --set =5
refuse --restart "$tr" --restart "$tmp/adir"
refuse --restart "$tg" --restart /dev/zero
refuse_cmd "--out" run "$tr" --out ''
refuse_cmd "--trace" run "$tr" --trace '' --out "$tmp/never1"
refuse_cmd "--restart" run "$tr" --restart '' --out "$tmp/never2"
refuse_cmd "--out" run "$tr" --out /proc/taskdycore-no/such
refuse_cmd "--trace" run "$tr" --trace /proc/taskdycore-no/such --out "$tmp/never3"
[ -e "$tmp/never1" ] || [ -e "$tmp/never2" ] || [ -e "$tmp/never3" ] && fail "empty options" "created an output directory"
refuse_cmd "--json" bench mpdata --grid 16x16x8 --json /proc/taskdycore-no/such.json
refuse_cmd "--json" bench elliptic --grid 16x16x8 --json /proc/taskdycore-no/such.json
refuse_cmd "--json" bench mpdata --grid 16x16x8 --json ''
refuse_cmd "--repeat" bench mpdata --grid 16x16x8 --repeat 0
refuse_cmd "--repeat" bench elliptic --grid 16x16x8 --repeat 0
refuse_cmd "--steps" bench mpdata --grid 16x16x8 --steps 0
refuse_cmd "--grid" bench mpdata --grid 4294967312x16x8
refuse_cmd "--out" run "$tr" --out "$tr"
refuse_cmd "--grid" bench mpdata --grid 2048x2048x1024
refuse_cmd "--grid" bench elliptic --grid 65536x65536x64
# An existing file given as --json is not overwritten.
echo precious > "$tmp/keep.json"
refuse_cmd "--json" bench mpdata --grid 16x16x8 --json "$tmp/keep.json"
[ "$(cat "$tmp/keep.json")" = precious ] || fail "--json" "overwrote an existing file"
# A non-empty --out is neither written nor changed.
mkdir -p "$tmp/keep"; echo precious > "$tmp/keep/summary.json"
refuse_cmd "--out" run "$tr" --out "$tmp/keep"
[ "$(cat "$tmp/keep/summary.json")" = precious ] && [ "$(ls -A "$tmp/keep")" = summary.json ] || fail "--out" "touched a non-empty directory"

echo "$((checks - failures)) of $checks passed, $failures failed"
[ $checks -ge 60 ] || fail "suite" "only $checks cases"
[ $failures -eq 0 ]
